import type { ResolvedBy } from '../../protocol/index.ts';
import type { Authenticator, Identity } from '../auth.ts';
import type { Core } from '../core.ts';
import type { Tx } from '../hub/hub.ts';
import type { ApprovalAnswers, RoutingHooks } from './question-hooks.ts';
import type { Outcome, QuestionOutcomes } from './question-outcomes.ts';
import type { CheckedReply } from './question-replies.ts';
import { voteIn } from './question-votes.ts';

/** Who answered, with the display name others see (E7 "Answered by Ana") when the config gives one. */
export function answeredBy(core: { auth: Pick<Authenticator, 'displayName'> }, identity: Identity, surface: string, atMs: number): ResolvedBy {
  const name = core.auth.displayName(identity.id);
  return { identity: identity.id, ...(name !== identity.id ? { name } : {}), surface, atMs };
}

/** What recording a reply's outcome reaches for: the rooms the question manager holds when the reply comes. */
export type ReplyRooms = {
  core: Pick<Core, 'auth' | 'clock'>;
  outcomes: QuestionOutcomes;
  routing: RoutingHooks | null;
  approvals: ApprovalAnswers | null;
};

/**
 * Q9 and PT5: a checked reply's outcome, inside the transaction that saves the reply message; `surface` is the
 * sender's (surface.ts). Returns whether the question was ended: then its outcome's session.updated, read after the
 * reply, told the reply's readers of it too (QuestionOutcomes.finishIn); short of a quorum (E5) the caller sends the
 * reply's own.
 */
export async function recordReplyIn(
  rooms: ReplyRooms,
  tx: Tx,
  identity: Identity,
  reply: CheckedReply,
  messageId: string,
  surface: string,
): Promise<boolean> {
  const resolvedBy = answeredBy(rooms.core, identity, surface, rooms.core.clock.now());
  const { answers } = reply;
  const status: Outcome['status'] = reply.skipped ? 'skipped' : 'answered';
  // E5: a reply's Allow counts toward a quorum like any other; short of it the question stays pending. G5: an "Always
  // allow…" typed or tapped as a reply makes its grant too, in this transaction.
  const vote = answers && !reply.skipped ? await voteIn(rooms, tx, identity, reply.q, answers, undefined, resolvedBy) : undefined;
  if (vote?.pending) return false;
  const outcome = { status, ...(answers ? { answers } : {}), resolvedBy, replyMessageId: messageId };
  await rooms.outcomes.finishIn(tx, vote?.q ?? reply.q, outcome, undefined, !reply.q.privileged);
  return true;
}
