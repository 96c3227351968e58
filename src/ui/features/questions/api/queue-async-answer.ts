import { useMutation } from '@tanstack/react-query';
import { type Answers, type QuestionRecord } from '../../../../protocol/index.ts';
import { formatAsyncAnswerText } from '../../../../answers/async-reply.ts';
import type { EnqueueInput, Outbox } from '../../../lib/outbox/outbox.ts';
import { useOutbox } from '../../../lib/outbox/use-outbox.ts';
import { draftActions } from '../stores/drafts.ts';
import { resolveKey } from './resolve-question.ts';

/** How an answer leaves this tab: an async question of a session as a chat message through the outbox (Q9, U9), the rest by question.resolve. */
export function answerRoute(record: QuestionRecord): 'outbox' | 'resolve' {
  // A sessionless question has no conversation to reply in, so only question.resolve can answer it.
  return record.mode === 'async' && record.sessionKey !== undefined ? 'outbox' : 'resolve';
}

/** The outbox row for an async answer: the Q9 text, and the structured answers for `replyTo.answers`. */
export function asyncAnswerInput(record: QuestionRecord & { sessionKey: string }, answers: Answers): EnqueueInput {
  return { sessionKey: record.sessionKey, questionId: record.id, text: formatAsyncAnswerText(record.questions, answers), answers };
}

export async function queueAsyncAnswer(outbox: Outbox, record: QuestionRecord, answers: Answers) {
  if (record.sessionKey === undefined) throw new Error(`question ${record.id} has no session to reply in: resolve it instead`);
  draftActions().asyncAnswerQueued(record.id, answers);
  return outbox.enqueue(asyncAnswerInput({ ...record, sessionKey: record.sessionKey }, answers));
}

export type QueueVariables = { record: QuestionRecord; kind: 'answer'; answers: Answers };

/** Queues an async answer; under the resolve key, so the dock shows it busy like any other submit. */
export function useQueueAsyncAnswer() {
  const outbox = useOutbox();
  return useMutation({
    mutationKey: [...resolveKey, 'outbox'],
    mutationFn: (v: QueueVariables) => queueAsyncAnswer(outbox, v.record, v.answers),
  });
}
