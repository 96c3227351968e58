import type { QuestionRecord } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import { canAnswerQuestion } from '../sessions/visibility.ts';
import type { ChannelBindings } from './bindings.ts';
import type { ChannelParts } from './parts.ts';

/** Where a text reply was written: its session, its conversation, and the bot message it replies to, if any. */
export type ReplyPlace = { sessionKey: string; conversation: string; replyTo?: string };

/**
 * H4: the pending question a text reply answers: asked by a run, posted here, answerable by this identity (A3); the
 * blocking one, else the newest. A reply to one of a question's own messages (its prompt, or the Force Reply after its
 * `Other…`, H3) answers that question, or none once it is no longer pending.
 */
export async function replyTarget(
  parts: Pick<ChannelParts, 'store' | 'access'>,
  bindings: ChannelBindings,
  identity: Identity | undefined,
  place: ReplyPlace,
): Promise<QuestionRecord | undefined> {
  if (!identity) return undefined;
  const owner = await parts.access.ownerOf(place.sessionKey);
  const pending: QuestionRecord[] = [];
  for (const q of await parts.store.listQuestions({ sessionKey: place.sessionKey, status: 'pending' }))
    if (q.runId !== undefined && q.retiredAtMs === undefined && canAnswerQuestion(identity, q, owner) && await bindings.post(q.id)) pending.push(q);
  const named = place.replyTo === undefined ? undefined : await bindings.questionOfRef(place.conversation, place.replyTo);
  if (named !== undefined) return pending.find((q) => q.id === named);
  return pending.find((q) => q.mode === 'blocking') ?? pending.at(-1);
}
