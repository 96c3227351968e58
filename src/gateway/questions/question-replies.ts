import { parseAsyncAnswerText } from '../../answers/async-reply.ts';
import { normaliseAnswers } from '../../answers/kinds/check-answers.ts';
import { readPlainTextReply } from '../../answers/plain-text.ts';
import { invalidRequest, type Answers, type ReplyTo } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import { alreadyTerminal, invalidAnswer, isTerminal } from './question-records.ts';
import type { StoredQuestion } from '../store/types.ts';
import { canAnswerQuestion, forbidden } from '../sessions/visibility.ts';

/** What a reply does to its question once its message is saved: answers it (answers may be absent, Q9) or skips it (PT4). */
export type CheckedReply = { q: StoredQuestion; answers?: Answers; skipped?: true };

const where = 'chat.send';

/**
 * Q9 and PT5 checks before a chat.send saves anything: the question belongs to this session, the sender may
 * answer it and it is still pending. Async: answers given are validated as in Q5, else read back from the text.
 * Blocking (PT5, only questions asked by a run): answers given as in Q5, else the text read by PT1-PT4.
 */
export function checkReply(
  identity: Identity,
  q: StoredQuestion,
  sessionOwner: string | undefined,
  sessionKey: string,
  replyTo: ReplyTo,
  text: string,
): CheckedReply {
  if (q.sessionKey !== sessionKey)
    throw invalidRequest(where, [{ path: 'replyTo.questionId', problem: `question "${q.id}" belongs to another session` }]);
  if (q.mode === 'blocking' && q.runId === undefined)
    throw invalidRequest(where, [
      { path: 'replyTo.questionId', problem: `question "${q.id}" is blocking and was not asked by a run: answer it with question.resolve` },
    ]);
  if (!canAnswerQuestion(identity, q, sessionOwner))
    throw forbidden(`answering question "${q.id}"`, ['operator.admin', 'operator.questions'], identity);
  if (isTerminal(q)) throw alreadyTerminal(q);
  if (replyTo.answers) {
    const checked = normaliseAnswers(q.questions, replyTo.answers);
    if (!checked.ok) throw invalidAnswer(q, checked.problems);
    return { q, answers: checked.answers };
  }
  return q.mode === 'blocking' ? plainReply(q, text) : asyncReply(q, text);
}

/** PT5: a reply that fits no rule answers QUESTION_INVALID_ANSWER naming the question(s), so nothing is saved. */
function plainReply(q: StoredQuestion, text: string): CheckedReply {
  const reading = readPlainTextReply(q.questions, text);
  if (reading.outcome === 'invalid') throw invalidAnswer(q, reading.problems);
  return reading.outcome === 'skipped' ? { q, skipped: true } : { q, answers: reading.answers };
}

/**
 * Q9 read-back. A reply with no quoted heading at all (typed by hand: `Sushi`, `2`, `1: Pizza`) reads as a plain-text
 * reply (PT1-PT3). Otherwise it reads by its headings. Where neither gives answers (ambiguous headings, a reply that
 * fits no rule, `skip`), the record keeps no answers and the message keeps the text.
 */
function asyncReply(q: StoredQuestion, text: string): CheckedReply {
  if (!/^>/m.test(text)) {
    const reading = readPlainTextReply(q.questions, text);
    return reading.outcome === 'answered' ? { q, answers: reading.answers } : { q };
  }
  const parsed = parseAsyncAnswerText(q.questions, text);
  const checked = parsed ? normaliseAnswers(q.questions, parsed) : null;
  return checked?.ok ? { q, answers: checked.answers } : { q };
}
