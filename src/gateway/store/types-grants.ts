import type { PolicyGrant } from '../../protocol/index.ts';

/** G5: a grant as stored; `revokedAtMs` once revoked. A grant is live while unrevoked and before `expiresAt`. */
export type StoredGrant = PolicyGrant & { createdAtMs: number; revokedAtMs?: number };

/** G5: the grants' part of the store: "Always allow…" answers, made in the transaction of the answer. */
export interface GrantStoreMethods {
  /** A taken id throws. */
  insertGrant(g: StoredGrant): void;
  getGrant(id: string): StoredGrant | undefined;
  /** Oldest first: with `liveAtMs`, only the unrevoked grants whose expiresAt is after it; else every grant. */
  listGrants(liveAtMs?: number): StoredGrant[];
  /** Marks a live grant revoked; false when there is none by that id, or it was already revoked. */
  revokeGrant(id: string, atMs: number): boolean;
}
