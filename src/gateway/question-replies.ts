import { invalidRequest, normaliseAnswers, type Answers, type ReplyTo } from '../protocol/index.ts';
import { parseAsyncAnswerText } from '../answers/async-reply.ts';
import type { Identity } from './auth.ts';
import { alreadyTerminal, invalidAnswer, isTerminal } from './question-records.ts';
import type { StoredQuestion } from './store/types.ts';
import { canAnswerQuestion, forbidden } from './visibility.ts';

export type CheckedReply = { q: StoredQuestion; answers?: Answers };

/**
 * Q9 checks before a chat.send saves anything: the question is an async one of this session the sender may
 * answer, still pending; answers given are validated as in Q5, otherwise read back from the text.
 */
export function checkReply(
  identity: Identity,
  q: StoredQuestion,
  sessionOwner: string | undefined,
  sessionKey: string,
  replyTo: ReplyTo,
  text: string,
): CheckedReply {
  const where = 'chat.send';
  if (q.sessionKey !== sessionKey)
    throw invalidRequest(where, [{ path: 'replyTo.questionId', problem: `question "${q.id}" belongs to another session` }]);
  if (q.mode !== 'async')
    throw invalidRequest(where, [{ path: 'replyTo.questionId', problem: `question "${q.id}" is blocking: answer it with question.resolve` }]);
  if (!canAnswerQuestion(identity, q, sessionOwner))
    throw forbidden(`answering question "${q.id}"`, ['operator.admin', 'operator.questions'], identity);
  if (isTerminal(q)) throw alreadyTerminal(q);
  if (replyTo.answers) {
    const checked = normaliseAnswers(q.questions, replyTo.answers);
    if (!checked.ok) throw invalidAnswer(q, checked.problems);
    return { q, answers: checked.answers };
  }
  const parsed = parseAsyncAnswerText(q.questions, text);
  const checked = parsed ? normaliseAnswers(q.questions, parsed) : null;
  // Ambiguous headings: the record keeps no answers, the message keeps the text.
  return checked?.ok ? { q, answers: checked.answers } : { q };
}
