import { sha256 } from './canonical.ts';
import { ED25519_BYTES, ed25519Sign, ed25519Verify, exactBytes, pairFromSeed, type Ed25519Pair } from './ed25519.ts';

/**
 * C2SP signed notes (c2sp.org/signed-note) with Ed25519 (signature type 0x01): a text ending in a newline, a blank line,
 * and lines `— <name> base64(key id || signature)`. Key id = SHA-256(name || 0x0A || 0x01 || public key)[:4].
 */
export class NoteError extends Error {
  readonly code = 'AUDIT_NOTE';
}

const ED25519_TYPE = 0x01;
const SIG_PREFIX = '\u2014 ';
const MAX_SIGNATURES = 100;

/** A public key a verifier trusts: name, key id and the 32-byte Ed25519 key. */
export type VerifierKey = { name: string; keyId: Buffer; publicKey: Buffer };
export type SignerKey = VerifierKey & Ed25519Pair & { seed: Buffer };

export function checkKeyName(name: string): void {
  if (!name || /[\s+]/u.test(name) || /[\u0000-\u001f]/.test(name))
    throw new NoteError(`key name "${name}": must be non-empty, with no spaces and no "+" (c2sp.org/signed-note)`);
}

export function keyIdOf(name: string, publicKey: Buffer): Buffer {
  return sha256(Buffer.from(name, 'utf8'), Buffer.from([0x0a, ED25519_TYPE]), publicKey).subarray(0, 4);
}

export function signerFromSeed(name: string, seed: Buffer): SignerKey {
  checkKeyName(name);
  const pair = pairFromSeed(seed);
  return { name, seed, ...pair, keyId: keyIdOf(name, pair.publicKey) };
}

/** `<name>+<key id, 8 hex>+<base64 of 0x01 and the 32-byte key>`: what `askdock audit key` prints. */
export function formatVerifierKey(key: VerifierKey): string {
  return `${key.name}+${key.keyId.toString('hex')}+${Buffer.concat([Buffer.from([ED25519_TYPE]), key.publicKey]).toString('base64')}`;
}

/** The private form of the same (as Go's sumdb/note writes it): `PRIVATE+KEY+<name>+<id>+<base64(0x01 || seed)>`. */
export function formatSignerKey(key: SignerKey): string {
  return `PRIVATE+KEY+${key.name}+${key.keyId.toString('hex')}+${Buffer.concat([Buffer.from([ED25519_TYPE]), key.seed]).toString('base64')}`;
}

function splitKey(text: string, what: string): { name: string; id: string; material: Buffer } {
  const first = text.indexOf('+');
  const second = text.indexOf('+', first + 1);
  if (first < 0 || second < 0) throw new NoteError(`${what} "${text}": expected <name>+<key id>+<key>`);
  const [name, id, b64] = [text.slice(0, first), text.slice(first + 1, second), text.slice(second + 1)];
  checkKeyName(name);
  if (!/^[0-9a-f]{8}$/.test(id)) throw new NoteError(`${what} "${text}": the key id must be 8 lowercase hex digits, got "${id}"`);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw new NoteError(`${what} "${text}": the key is not base64`);
  const material = Buffer.from(b64, 'base64');
  if (material.length !== 1 + ED25519_BYTES || material[0] !== ED25519_TYPE)
    throw new NoteError(`${what} "${text}": the key must be 0x01 (Ed25519) and 32 bytes`);
  return { name, id, material: material.subarray(1) };
}

export function parseVerifierKey(text: string): VerifierKey {
  const { name, id, material } = splitKey(text.trim(), 'verifier key');
  const keyId = keyIdOf(name, material);
  if (keyId.toString('hex') !== id) throw new NoteError(`verifier key "${text.trim()}": key id ${id} does not match the key (${keyId.toString('hex')})`);
  return { name, keyId, publicKey: material };
}

export function parseSignerKey(text: string): SignerKey {
  const trimmed = text.trim();
  if (!trimmed.startsWith('PRIVATE+KEY+')) throw new NoteError('signer key: must start with PRIVATE+KEY+');
  const { name, id, material } = splitKey(trimmed.slice('PRIVATE+KEY+'.length), 'signer key');
  const key = signerFromSeed(name, material);
  if (key.keyId.toString('hex') !== id) throw new NoteError(`signer key for "${name}": key id ${id} does not match the key`);
  return key;
}

function checkText(text: string): void {
  if (!text.endsWith('\n') || text.includes('\n\n')) throw new NoteError('note text: must end with a newline and hold no blank line');
  if (/[\u0000-\u0009\u000b-\u001f]/.test(text)) throw new NoteError('note text: no control characters but newlines');
}

export function signNote(text: string, signers: SignerKey[]): string {
  checkText(text);
  const lines = signers.map((k) => `${SIG_PREFIX}${k.name} ${Buffer.concat([k.keyId, ed25519Sign(k.privateKey, text)]).toString('base64')}\n`);
  return `${text}\n${lines.join('')}`;
}

export type OpenedNote =
  | { ok: true; text: string; signedBy: VerifierKey[] }
  | { ok: false; problem: 'malformed' | 'bad-signature' | 'unknown-key'; detail: string; names?: string[] };

/** Verifies a note against the trusted keys: signatures of unknown keys are ignored; one known key must verify, none may fail. */
export function openNote(note: string, trusted: VerifierKey[]): OpenedNote {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return { ok: false, problem: 'malformed', detail: 'no blank line before the signatures' };
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) return { ok: false, problem: 'malformed', detail: `more than ${MAX_SIGNATURES} signatures` };
  const signedBy: VerifierKey[] = [];
  const names: string[] = [];
  for (const line of lines) {
    const match = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/.exec(line);
    const blob = match ? exactBytes(match[2], 'base64') : undefined;
    if (!match || !blob || blob.length < 5) return { ok: false, problem: 'malformed', detail: `signature line "${line}" is not "— <name> <base64>"` };
    names.push(match[1]);
    const key = trusted.find((k) => k.name === match[1] && k.keyId.equals(blob.subarray(0, 4)));
    if (!key) continue;
    if (!ed25519Verify(key.publicKey, text, blob.subarray(4))) return { ok: false, problem: 'bad-signature', detail: `the signature of ${key.name} (${key.keyId.toString('hex')}) does not verify` };
    signedBy.push(key);
  }
  if (signedBy.length === 0) return { ok: false, problem: 'unknown-key', detail: `signed only by keys not trusted here: ${names.join(', ')}`, names };
  return { ok: true, text, signedBy };
}

/** c2sp.org/tlog-checkpoint: origin, tree size, base64 root. */
export type Checkpoint = { origin: string; size: number; root: Buffer };

export function formatCheckpoint(c: Checkpoint): string {
  if (!c.origin || c.origin.includes('\n')) throw new NoteError('checkpoint origin: must be one non-empty line');
  return `${c.origin}\n${c.size}\n${c.root.toString('base64')}\n`;
}

export function parseCheckpoint(text: string): Checkpoint {
  const [origin, size, root] = text.split('\n');
  if (!origin || !/^(0|[1-9][0-9]*)$/.test(size ?? '')) throw new NoteError('checkpoint: expected <origin>, <size> (no leading zeros), <base64 root>');
  const hash = Buffer.from(root ?? '', 'base64');
  if (hash.length !== 32 || hash.toString('base64') !== root) throw new NoteError('checkpoint: the root must be 32 bytes in base64');
  return { origin, size: Number(size), root: hash };
}
