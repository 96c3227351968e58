import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import { AuditConfig, AuditKeyError, auditKeyFileIn, auditKeysDocument, keysFromConfig, loadOrCreateKeyFile, type DatedKey } from '../../audit/index.ts';
import { defaultOrigin, readKeyFileIfAny } from '../../audit/keys.ts';
import type { SecretBox } from '../secrets/secret-box.ts';
import type { Store } from '../store/types.ts';
import { sharedAuditKeys } from './shared-keys.ts';
import { newSeed } from '../../audit/ed25519.ts';
import { signerFromSeed } from '../../audit/note.ts';
import type { GatewayLog } from '../infra/logger.ts';

/** L3/L8: the keys the gateway signs with, or null (unsigned) with why. */
export type AuditSetup = { keys: DatedKey[] | null; origin: string; why?: string; file?: string };

export const AUDIT_KEYS_PATH = '/.well-known/askdock/audit-keys';

/** What a gateway on a database several gateways share uses to keep one key for all of them (shared-keys.ts). */
export type SharedKeyStore = { store: Store; box: SecretBox };

/**
 * L3 at start: keys from the config's `audit` section, else the key file in the data folder (made on first start,
 * owner-only; on a database several gateways share, the database's key, see shared-keys.ts), else (a gateway with no
 * data folder, memory only) a key that lives as long as the process. A key that cannot be used leaves the log unsigned
 * (L8), said in the start line and to admins.
 */
export async function auditSetup(config: unknown, secretKeyFile: string | undefined, now: Date, log: GatewayLog, shared?: SharedKeyStore): Promise<AuditSetup> {
  const parsed = AuditConfig.safeParse(config ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return unsigned(`config audit.${issue.path.join('.')}: ${issue.message}`, log);
  }
  try {
    const given = keysFromConfig(parsed.data);
    if (given) return { keys: given, origin: parsed.data.origin ?? given[given.length - 1].name };
    if (!secretKeyFile) {
      const origin = parsed.data.origin ?? defaultOrigin();
      return { keys: [{ ...signerFromSeed(origin, newSeed()), validFrom: now.toISOString() }], origin };
    }
    const file = auditKeyFileIn(dirname(secretKeyFile));
    const keys = shared
      ? await sharedAuditKeys(shared.store, shared.box, file, readKeyFileIfAny(file), parsed.data.origin, now, log)
      : loadOrCreateKeyFile(file, { ...(parsed.data.origin ? { origin: parsed.data.origin } : {}), now }).keys;
    return { keys, origin: keys[keys.length - 1].name, file };
  } catch (err) {
    if (err instanceof AuditKeyError) return unsigned(err.message, log);
    throw err;
  }
}

function unsigned(why: string, log: GatewayLog): AuditSetup {
  log.warn(`audit: unsigned (${why}): no receipts, no checkpoints; askdock audit export needs --unsigned`);
  return { keys: null, origin: 'askdock.local/audit', why };
}

/** L3: GET /.well-known/askdock/audit-keys (public: verifier keys only). */
export function auditKeysRoute(setup: AuditSetup) {
  const body = JSON.stringify(auditKeysDocument(setup.keys ?? []));
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if ((req.url ?? '').split('?')[0] !== AUDIT_KEYS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}

/** The start line's audit part (L8). */
export const auditStartLine = (setup: AuditSetup) => (setup.keys ? `audit: signed (${setup.origin})` : `audit: unsigned (${setup.why})`);
