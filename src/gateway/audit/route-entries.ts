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

/**
 * L1, in the asking transaction: who a routed question was first put before (its first step's people, E2). A question
 * with no route is shown to everyone who may see it, which its `question.asked` entry already says; later steps are
 * `question.escalated` entries.
 */
export async function recordNotified(audit: AuditRoom, q: StoredQuestion): Promise<void> {
  if (!q.route || q.route.notified.length === 0) return;
  await audit.record({
    atMs: q.createdAtMs,
    event: 'question.notified',
    questionId: q.id,
    ...(q.sessionKey !== undefined ? { sessionKey: q.sessionKey } : {}),
    detail: { escalation: q.route.escalation, step: q.route.step, notified: q.route.notified.join(',') },
  });
}
