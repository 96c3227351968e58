/**
 * The async reply (PROTOCOL Q9): the chat message an async answer travels in, and how a saved reply reads back
 * into answers. The gateway reads replies back with it; the Control UI writes them and shows them in summaries.
 */
import { own } from '../protocol/rules.ts';
import { kindOf } from './kinds/index.ts';
import { authoredLabel } from './kinds/labels.ts';
import type { Answers, QuestionRecord } from '../protocol/index.ts';

/** Q9: one block per question, `> <header or question>` then the answer, blocks parted by a blank line. */
export function formatAsyncAnswerText(items: QuestionRecord['questions'], answers: Answers): string {
  return items.map((item) => `> ${oneLine(item.header || item.question)}\n${(own(answers, item.id) ?? []).join(', ')}`).join('\n\n');
}

// A heading must stay on its quote line, so any run of whitespace (a line break too) becomes one space.
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const headingKey = (text: string) => oneLine(text).toLowerCase();

/**
 * Q9 read-back: splits a reply into answers per question, or returns null when the quoted headings make it
 * ambiguous (a heading missing, repeated, out of order, or a quote line inside an answer).
 */
export function parseAsyncAnswerText(items: QuestionRecord['questions'], text: string): Answers | null {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const headings = items.map((item) => headingKey(item.header || item.question));
  if (new Set(headings).size !== headings.length) return null;
  const blocks: { heading: string; body: string[] }[] = [];
  for (const line of lines) {
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote) blocks.push({ heading: headingKey(quote[1]), body: [] });
    else if (blocks.length) blocks[blocks.length - 1].body.push(line);
    else if (line.trim()) return null;
  }
  if (blocks.length !== items.length) return null;
  const out: Answers = {};
  for (let i = 0; i < items.length; i++) {
    if (blocks[i].heading !== headings[i]) return null;
    const body = blocks[i].body.join('\n').trim();
    if (!body) return null;
    const item = items[i];
    out[item.id] = Array.from(new Set(kindOf(item).readBody(item, body).map((v) => authoredLabel(item, v))));
  }
  return out;
}

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
