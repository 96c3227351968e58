import type { QuestionRecord, QuorumState, Result } from '../../protocol/index.ts';
import { heldVoteText } from '../../lib/route-text.ts';
import type { ChannelCaller } from './caller.ts';
import { chatText } from './chat-text.ts';
import type { PressReply } from './types.ts';

/**
 * What a press that answered tells the person who pressed: "Answered: Allow", or, for an Allow held short of a quorum
 * (E5), that it counted and whom the question still waits for; the message keeps its buttons for the next approver.
 * `resolved` is question.resolve's result; an async answer (a chat reply) does not say whether it was held, so the
 * question, read again, does.
 */
export async function answeredNotice(caller: ChannelCaller, identityId: string, q: QuestionRecord, label: string, resolved?: Result<'question.resolve'>): Promise<PressReply> {
  const quorum = resolved?.status === 'pending' ? resolved.quorum : undefined;
  const held = !resolved ? await heldNotice(caller, identityId, q) : quorum && heldVoteText(quorum, votedBefore(q, identityId));
  return held ? { notice: chatText(held), held: true } : { notice: chatText(`Answered: ${label}`) };
}

/** E5: after a reply or an async press (a chat message), what its sender hears if their Allow was held; undefined if it ended the question. */
async function heldNotice(caller: ChannelCaller, identityId: string, q: QuestionRecord): Promise<string | undefined> {
  if (!q.route?.quorum) return undefined;
  const { question } = await caller.call(identityId, 'question.get', { id: q.id });
  const quorum: QuorumState | undefined = question.status === 'pending' ? question.route?.quorum : undefined;
  return quorum && heldVoteText(quorum, votedBefore(q, identityId));
}

/** E5: a reply's Allow held short of the quorum: no edit follows, so its sender is told it counted. */
export async function tellHeld(caller: ChannelCaller, identityId: string, q: QuestionRecord, say: (text: string) => void): Promise<void> {
  const held = await heldNotice(caller, identityId, q);
  if (held) say(chatText(held));
}

/** The same person's second Allow (from here or another surface) counts once: they hear it was already counted. */
const votedBefore = (q: QuestionRecord, identityId: string) => q.route?.quorum?.approvals.some((a) => a.identity === identityId) ?? false;
