import type { StoredGrant } from './types.ts';

/** G5: a grant row as both SQL stores keep it: its record as JSON, with the columns a listing filters and sorts by. */
export type GrantDbRow = { record: string; revoked_at_ms: number | string | null };

/** The record without `revokedAtMs`, which lives in its own column (a revoke writes only that). */
export function grantRecordJson(g: StoredGrant): string {
  const { revokedAtMs: _revoked, ...record } = g;
  return JSON.stringify(record);
}

export function toGrant(r: GrantDbRow): StoredGrant {
  const g = JSON.parse(r.record) as StoredGrant;
  return r.revoked_at_ms === null ? g : { ...g, revokedAtMs: Number(r.revoked_at_ms) };
}
