import type { StoredQuestion } from '../store/types.ts';
import type { AuditRoom } from './audit-room.ts';

export type RouteEvent = 'question.escalated' | 'question.acknowledged' | 'question.handedOff';

/** L1, in the transaction that changes a question's route: a step ran (who it reached), an acknowledgement, a hand-off. */
export async function recordRoute(
  audit: AuditRoom | undefined,
  event: RouteEvent,
  q: StoredQuestion,
  atMs: number,
  who: { identity?: string; detail?: Record<string, string | number> } = {},
): Promise<void> {
  if (!audit) return;
  await audit.record({
    atMs,
    event,
    ...(who.identity !== undefined ? { identity: who.identity } : {}),
    questionId: q.id,
    ...(q.sessionKey !== undefined ? { sessionKey: q.sessionKey } : {}),
    ...(who.detail ? { detail: who.detail } : {}),
  });
}
