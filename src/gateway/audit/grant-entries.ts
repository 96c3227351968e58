import type { StoredGrant } from '../store/types.ts';
import type { AuditRoom } from './audit-room.ts';

/** L1, in the transaction that makes or ends a grant: who did it, the grant, the question it came from and its rule. */
export async function recordGrant(audit: AuditRoom, event: 'grant.made' | 'grant.revoked', grant: StoredGrant, identity: string, atMs: number): Promise<void> {
  await audit.recordUnread({
    atMs,
    event,
    identity,
    questionId: grant.questionId,
    ...(grant.sessionKey !== undefined ? { sessionKey: grant.sessionKey } : {}),
    grantId: grant.id,
    detail: { rule: grant.rule, scope: grant.scope, expiresAt: grant.expiresAt },
  });
}
