import { AuditKeyError, type DatedKey } from '../../audit/index.ts';
import { keysFromText, keysText, saveKeyFile } from '../../audit/keys.ts';
import { newSeed } from '../../audit/ed25519.ts';
import { defaultOrigin } from '../../audit/keys.ts';
import { signerFromSeed } from '../../audit/note.ts';
import type { GatewayLog } from '../infra/logger.ts';
import type { SecretBox } from '../secrets/secret-box.ts';
import type { Store } from '../store/types.ts';

/** Where the log's signing keys are kept, sealed with the secrets key, on a database several gateways share. */
const SEALED_KEYS_META = 'audit.signingKeys';

// A key is known by its name and public key (keyId is a Buffer: compared by value, never by reference).
const ids = (keys: DatedKey[]) => keys.map((k) => `${k.name}+${k.publicKey.toString('base64')}`);
/** True when `longer` holds every key of `shorter`, in order, and maybe newer ones (a rotation). */
const extendsKeys = (longer: DatedKey[], shorter: DatedKey[]) => longer.length >= shorter.length && ids(shorter).every((id, i) => ids(longer)[i] === id);

/**
 * L3 on a database several gateways share: one log, one key. The keys live in the database sealed with the secrets key
 * (which every gateway of the database must share, K1), so the first gateway's key is every gateway's: each keeps a copy
 * in its key file (owner-only) for `askdock audit key`. A key file that adds keys to the database's (after
 * `askdock audit key --rotate`) is taken into the database; a key file with another key is not used (L8: unsigned,
 * naming the file) rather than sign a second log.
 */
export async function sharedAuditKeys(store: Store, box: SecretBox, file: string, local: DatedKey[] | undefined, origin: string | undefined, now: Date, log: GatewayLog): Promise<DatedKey[]> {
  const keys = await store.transaction(async () => {
    const saved = await store.getMeta(SEALED_KEYS_META);
    const held = saved === undefined ? undefined : keysFromText(box.open(SEALED_KEYS_META, saved), `the audit keys kept in the database`);
    if (held && local && !extendsKeys(local, held) && !extendsKeys(held, local))
      throw new AuditKeyError(`the audit key file ${file} holds another key than the one this database's log is signed with: remove it (the gateway then takes the database's) or copy the key file of a gateway of this database`);
    const chosen = held && (!local || extendsKeys(held, local)) ? held : (local ?? [{ ...signerFromSeed(origin ?? defaultOrigin(), newSeed()), validFrom: now.toISOString() }]);
    if (chosen !== held) await store.setMeta(SEALED_KEYS_META, box.seal(SEALED_KEYS_META, keysText(chosen)));
    return chosen;
  });
  if (!local || keys.length > local.length) {
    saveKeyFile(file, keys);
    log.info(`audit: the log's signing keys (shared by the gateways of this database) copied to ${file}`);
  }
  return keys;
}
