import { copyJson } from './shape.ts';
import type { UndoJournal } from './memory-journal.ts';
import { memoryTable } from './memory-table.ts';
import type { SecretStoreMethods, StoredSecret, StoredSecretRequest } from './types.ts';

/** K1 in memory: secret requests (never a value) and secrets as ciphertext only, each owner's apart. */
export function memorySecretMethods(journal: Pick<UndoJournal, 'open' | 'put' | 'insert' | 'replace'>): SecretStoreMethods {
  const { open, put } = journal;
  const requests = memoryTable<StoredSecretRequest>(journal, 'secret request', (r) => r.id, copyJson);
  const secrets = new Map<string, StoredSecret>();
  const secretKey = (owner: string, name: string) => JSON.stringify([owner, name]);
  return {
    insertSecretRequest: requests.insert,
    getSecretRequest: requests.get,
    updateSecretRequest: requests.replace,
    listSecretRequests: (filter) =>
      requests.list((r) => filter.status === undefined || r.status === filter.status, (a, b) => a.value.createdAtMs - b.value.createdAtMs || a.n - b.n),
    putSecret(secret) {
      open();
      put(secrets, secretKey(secret.owner, secret.name), copyJson(secret));
    },
    getSecret(owner, name) {
      open();
      const found = secrets.get(secretKey(owner, name));
      return found ? copyJson(found) : undefined;
    },
  };
}
