import { ConfigError } from '../auth.ts';
import type { Store } from '../store/types.ts';
import type { SecretBox } from './secret-box.ts';

const KEY_CHECK_META = 'secrets.keyCheck';

/**
 * K1 on a database several gateways share: every gateway must seal with the same key, or a secret stored through one
 * cannot be read through another. The first gateway records its key's fingerprint (never the key) in the database; a
 * gateway started with another key refuses to start, naming the file, instead of failing later on `secret.get`.
 */
export async function checkSharedSecretKey(store: Store, box: SecretBox, keyFile: string): Promise<void> {
  const mine = box.fingerprint();
  const recorded = await store.transaction(async () => {
    const saved = await store.getMeta(KEY_CHECK_META);
    if (saved === undefined) await store.setMeta(KEY_CHECK_META, mine);
    return saved ?? mine;
  });
  if (recorded !== mine)
    throw new ConfigError(
      `the secrets key ${keyFile} is not the key this database's secrets are sealed with: give every gateway on this database a copy of the same key file (--secrets-key FILE)`,
    );
}
