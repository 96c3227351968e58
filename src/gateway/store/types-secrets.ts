import type { SecretRequestRecord, SecretStatus } from '../../protocol/index.ts';

/** K1: a secret request as stored: the public record plus the asking client. Never holds a value. */
export type StoredSecretRequest = SecretRequestRecord & { askerClientId?: string };

/**
 * K1: a stored secret: only its ciphertext (encrypted above the store, so every store gets it for free). It belongs to
 * the agent identity that asked for it (`owner`); another identity's secret of the same name is another secret.
 */
export type StoredSecret = { owner: string; name: string; ciphertext: string; storedBy: string; requestId?: string; storedAtMs: number };

/** K1: the secrets' part of the store: requests without values, and values as ciphertext only. */
export interface SecretStoreMethods {
  insertSecretRequest(r: StoredSecretRequest): void;
  getSecretRequest(id: string): StoredSecretRequest | undefined;
  /** Replaces the stored request with this one (same id). */
  updateSecretRequest(r: StoredSecretRequest): void;
  /** Oldest first. */
  listSecretRequests(filter: { status?: SecretStatus }): StoredSecretRequest[];
  /** Stores or replaces the owner's secret of this name. */
  putSecret(secret: StoredSecret): void;
  /** The owner's secret of this name; another owner's of the same name is never returned. */
  getSecret(owner: string, name: string): StoredSecret | undefined;
}
