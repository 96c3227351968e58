import type { QuestionRecord, QuorumState, Result } from '../../protocol/index.ts';
import { heldVoteText } from '../../lib/route-text.ts';
import type { ChannelCaller } from './caller.ts';
import type { PressReply } from './types.ts';

/**
 * What a press that answered tells the person who pressed: "Answered: Allow", or, for an Allow held short of a quorum
 * (E5), that it counted and whom the question still waits for; the message keeps its buttons for the next approver.
 * `resolved` is question.resolve's result; an async answer (a chat reply) does not say whether it was held, so the
 * question, read again, does.
 */
export async function answeredNotice(caller: ChannelCaller, identityId: string, q: QuestionRecord, label: string, resolved?: Result<'question.resolve'>): Promise<PressReply> {
  let held: QuorumState | undefined;
  if (resolved) held = resolved.status === 'pending' ? resolved.quorum : undefined;
  else if (q.route?.quorum) {
    const { question } = await caller.call(identityId, 'question.get', { id: q.id });
    held = question.status === 'pending' ? question.route?.quorum : undefined;
  }
  // The same person's second Allow (from here or another surface) counts once: they hear it was already counted.
  const again = q.route?.quorum?.approvals.some((a) => a.identity === identityId) ?? false;
  return held ? { notice: heldVoteText(held, again), held: true } : { notice: `Answered: ${label}` };
}
