import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as z from 'zod';
import { newSeed } from './ed25519.ts';
import { formatSignerKey, formatVerifierKey, parseSignerKey, signerFromSeed, type SignerKey, type VerifierKey } from './note.ts';

/** L3: the signing keys of the audit log. The last one signs; the ones before it stay listed so old checkpoints verify. */
export type DatedKey = SignerKey & { validFrom: string };
export type PublicDatedKey = VerifierKey & { validFrom: string };

export class AuditKeyError extends Error {
  readonly code = 'AUDIT_KEY_UNUSABLE';
}

export const AUDIT_KEY_FILE = 'audit.key';

/** The key file beside the database, in the gateway's data folder (as K1's secrets.key). */
export function auditKeyFileIn(dataDir: string): string {
  return join(resolve(dataDir), AUDIT_KEY_FILE);
}

const KeyEntry = z.object({ signerKey: z.string().min(1), validFrom: z.iso.datetime() }).strict();
const KeyFile = z.object({ v: z.literal(1), keys: z.array(KeyEntry).min(1) }).strict();

/** Config (`audit` in the gateway's config file): keys given there win over the key file. */
export const AuditConfig = z
  .object({
    origin: z.string().regex(/^[^\s+]+$/, 'no spaces and no "+"').optional(),
    keys: z.array(KeyEntry).min(1).optional(),
  })
  .strict();
export type AuditConfig = z.infer<typeof AuditConfig>;

function readKeys(entries: z.infer<typeof KeyEntry>[], where: string): DatedKey[] {
  return entries.map((entry, i) => {
    try {
      return { ...parseSignerKey(entry.signerKey), validFrom: entry.validFrom };
    } catch (err) {
      throw new AuditKeyError(`${where}keys[${i}].signerKey: ${(err as Error).message}`);
    }
  });
}

export function keysFromConfig(config: AuditConfig): DatedKey[] | undefined {
  return config.keys ? readKeys(config.keys, 'config audit.') : undefined;
}

function readKeyFile(path: string): DatedKey[] {
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077)
    throw new AuditKeyError(`the audit key file ${path} can be read by others (mode ${mode.toString(8).padStart(4, '0')}): run chmod 600 ${path}`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new AuditKeyError(`the audit key file ${path} is not JSON: ${(err as Error).message}`);
  }
  const parsed = KeyFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AuditKeyError(`the audit key file ${path}: ${issue.path.join('.') || '$'}: ${issue.message}`);
  }
  return readKeys(parsed.data.keys, `${path}: `);
}

function fileText(keys: DatedKey[]): string {
  return JSON.stringify({ v: 1, keys: keys.map((k) => ({ signerKey: formatSignerKey(k), validFrom: k.validFrom })) }, null, 2) + '\n';
}

/** Writes a new file that only its owner can read; never overwrites (another gateway may have made it first). */
function writeNewFile(path: string, text: string): boolean {
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    chmodSync(path, 0o600);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

export const defaultOrigin = () => `askdock.local/audit-${randomBytes(4).toString('hex')}`;

/** Reads the key file, or makes it with one new key (mode 0600) on first start. */
export function loadOrCreateKeyFile(file: string, opts: { origin?: string; now: Date }): { keys: DatedKey[]; created: boolean } {
  const path = resolve(file);
  try {
    return { keys: readKeyFile(path), created: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dirname(path), { recursive: true });
  const key = { ...signerFromSeed(opts.origin ?? defaultOrigin(), newSeed()), validFrom: opts.now.toISOString() };
  if (writeNewFile(path, fileText([key]))) return { keys: [key], created: true };
  return { keys: readKeyFile(path), created: false };
}

/** Reads the key file without making one (`askdock audit key`). */
export function readKeyFileIfAny(file: string): DatedKey[] | undefined {
  try {
    return readKeyFile(resolve(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Key rotation: a new key (same name) becomes the signer from `now`; the old ones stay so what they signed verifies. */
export function rotateKeyFile(file: string, now: Date): DatedKey[] {
  const keys = readKeyFile(resolve(file));
  const next = [...keys, { ...signerFromSeed(keys[keys.length - 1].name, newSeed()), validFrom: now.toISOString() }];
  saveKeyFile(file, next);
  return next;
}

/** Replaces (or makes) the key file with `keys`, owner-only, in one rename. */
export function saveKeyFile(file: string, keys: DatedKey[]): void {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(4).toString('hex')}.new`;
  if (!writeNewFile(temp, fileText(keys))) throw new AuditKeyError(`cannot write ${temp}: it exists`);
  renameSync(temp, path);
}

/** The key list as the key file holds it (signer keys with their dates), e.g. to keep it sealed elsewhere. */
export const keysText = (keys: DatedKey[]): string => fileText(keys);

/** Reads what keysText wrote; `where` names it in an error. */
export function keysFromText(text: string, where: string): DatedKey[] {
  const parsed = KeyFile.safeParse(JSON.parse(text));
  if (!parsed.success) throw new AuditKeyError(`${where}: ${parsed.error.issues[0].message}`);
  return readKeys(parsed.data.keys, `${where}: `);
}

export const signerOf = (keys: DatedKey[]): DatedKey => keys[keys.length - 1];

/** `GET /.well-known/askdock/audit-keys`. */
export function auditKeysDocument(keys: PublicDatedKey[]) {
  return {
    keys: keys.map((k) => ({
      name: k.name,
      keyId: k.keyId.toString('hex'),
      verifierKey: formatVerifierKey(k),
      publicKey: k.publicKey.toString('base64'),
      validFrom: k.validFrom,
    })),
  };
}
export type AuditKeysDocument = ReturnType<typeof auditKeysDocument>;
