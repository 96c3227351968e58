import { copyJson } from './shape.ts';
import type { Entry, UndoJournal } from './memory-journal.ts';
import type { SecretStoreMethods, StoredSecret, StoredSecretRequest } from './types.ts';

/** K1 in memory: secret requests (never a value) and secrets as ciphertext only, each owner's apart. */
export function memorySecretMethods(journal: Pick<UndoJournal, 'open' | 'put' | 'insert' | 'replace'>): SecretStoreMethods {
  const { open, put, insert, replace } = journal;
  const secretRequests = new Map<string, Entry<StoredSecretRequest>>();
  const secrets = new Map<string, StoredSecret>();
  const secretKey = (owner: string, name: string) => JSON.stringify([owner, name]);
  return {
    insertSecretRequest(r) {
      open();
      insert(secretRequests, 'secret request', r.id, copyJson(r));
    },
    getSecretRequest(id) {
      open();
      const entry = secretRequests.get(id);
      return entry ? copyJson(entry.value) : undefined;
    },
    updateSecretRequest(r) {
      open();
      replace(secretRequests, 'secret request', r.id, copyJson(r));
    },
    listSecretRequests(filter) {
      open();
      return [...secretRequests.values()]
        .filter((e) => filter.status === undefined || e.value.status === filter.status)
        .sort((a, b) => a.value.createdAtMs - b.value.createdAtMs || a.n - b.n)
        .map((e) => copyJson(e.value));
    },
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
