import type { RouteState } from '../../protocol/index.ts';
import type { StoredQuestion } from '../store/types.ts';
import type { AuditRoom } from './audit-room.ts';

/** E3: the targets a step skipped (a person who may not see the question, no session owner), and why: `group:ops[bo] (may-not-see)`. */
export const skipsOf = (skipped: RouteState['skipped'] = []): { skipped?: string } =>
  skipped.length ? { skipped: skipped.map((s) => `${s.target}${s.identity && s.target !== `identity:${s.identity}` ? `[${s.identity}]` : ''} (${s.reason})`).join(', ') } : {};

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
  await audit.recordUnread({
    atMs,
    event,
    ...(who.identity !== undefined ? { identity: who.identity } : {}),
    questionId: q.id,
    ...(q.sessionKey !== undefined ? { sessionKey: q.sessionKey } : {}),
    agentId: q.askedBy,
    ...(who.detail ? { detail: who.detail } : {}),
  });
}

/**
 * L1: who a question was put before. In the asking transaction, a routed question's first step's people (E2); a
 * question with no route is shown to everyone who may see it, which its `question.asked` entry already says, and later
 * steps are `question.escalated` entries. With `by`, a surface that reached people on its own (a push, sent in a
 * unit of its own once the question was committed).
 */
export async function recordNotified(audit: AuditRoom, q: Pick<StoredQuestion, 'id' | 'sessionKey' | 'askedBy' | 'createdAtMs' | 'route'>, by?: { surface: string; identities: string[] }): Promise<void> {
  const route = q.route;
  // A first step that reached nobody is recorded too: its skips say why nobody was asked (E3).
  if (!by && (!route || (route.notified.length === 0 && !route.skipped?.length))) return;
  await audit.recordUnread({
    atMs: by ? audit.now() : q.createdAtMs,
    event: 'question.notified',
    ...(by ? { surface: by.surface } : {}),
    questionId: q.id,
    ...(q.sessionKey !== undefined ? { sessionKey: q.sessionKey } : {}),
    agentId: q.askedBy,
    detail: by ? { notified: by.identities.join(',') } : { escalation: route!.escalation, step: route!.step, notified: route!.notified.join(','), ...skipsOf(route!.skipped) },
  });
}
