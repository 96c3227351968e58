import { formatAsyncAnswerText, own, parseAsyncAnswerText, type Answers, type QuestionRecord } from '../../../protocol/index.ts';

export type ReadBackItem = { questionId: string; header: string; question: string; answer: string[] };

/** Per question when the saved reply splits for certain; otherwise the saved reply text, whole (PRODUCT U9). */
export type ReplyReadBack = { perQuestion: ReadBackItem[] } | { whole: string };

// Differences a reader cannot see (line endings, trailing spaces, blank lines at the ends) do not count as edits.
const canonical = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();

/**
 * What a question's summary shows for its async answer, read back from the saved reply message.
 * A split is shown only when it writes back to exactly the saved text: the structured answers the reply carried
 * (`replyTo.answers`, or the outbox row's), then the record's, then the text read back by Q9's rule.
 * A reply edited by hand away from that form, or whose quoted headings make the split ambiguous, shows whole.
 */
export function readBackReply(
  question: Pick<QuestionRecord, 'questions'> & { answers?: Answers },
  replyText: string,
  sentAnswers?: Answers,
): ReplyReadBack {
  const items = question.questions;
  const saved = canonical(replyText);
  const fits = (answers: Answers | undefined | null): answers is Answers =>
    !!answers && items.every((item) => (own(answers, item.id)?.length ?? 0) > 0) && canonical(formatAsyncAnswerText(items, answers)) === saved;
  const candidates = [sentAnswers, question.answers, parseAsyncAnswerText(items, replyText)];
  const answers = candidates.find(fits);
  if (!answers) return { whole: replyText };
  return {
    perQuestion: items.map((item) => ({ questionId: item.id, header: item.header, question: item.question, answer: own(answers, item.id) ?? [] })),
  };
}
