import type { StoredSecret, StoredSecretRequest } from './types.ts';

/** K1: a secret row as both SQL stores keep it (the value as ciphertext only). */
export type SecretDbRow = { owner: string; name: string; ciphertext: string; stored_by: string; request_id: string | null; stored_at_ms: number };

export const toSecret = (r: SecretDbRow): StoredSecret => ({
  owner: r.owner,
  name: r.name,
  ciphertext: r.ciphertext,
  storedBy: r.stored_by,
  storedAtMs: r.stored_at_ms,
  ...(r.request_id ? { requestId: r.request_id } : {}),
});

/** A secret request's row keeps its whole record as JSON. */
export const toSecretRequest = (r: Record<string, unknown>) => JSON.parse(String(r.record)) as StoredSecretRequest;
