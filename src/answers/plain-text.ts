import { normaliseAnswers } from './kinds/check-answers.ts';
import type { AnswerProblem, Answers, QuestionRecord } from '../protocol/index.ts';
import { kindOf } from './kinds/index.ts';
import { bareLabel, optionFor } from './kinds/labels.ts';

/**
 * The plain-text reply reader (PROTOCOL PT1-PT4): what a person typed in a terminal or a chat, read against a
 * question record. Pure: the gateway (PT5), the TUI and every channel use this one module.
 */

type Items = QuestionRecord['questions'];
type Item = Items[number];

export type PlainTextReading =
  | { outcome: 'answered'; answers: Answers }
  | { outcome: 'skipped' }
  | { outcome: 'invalid'; problems: AnswerProblem[] };

export { optionFor };

/** PT1 or PT2, as the question's kind reads a reply. */
export function readItem(item: Item, text: string): string[] {
  return kindOf(item).readReply(item, text);
}

/** PT3 keys of question i: its number, id and header (case-insensitive), longest first so headers with colons still match. */
function keysOf(items: Items): { key: string; index: number }[] {
  const keys = items.flatMap((item, index) => [String(index + 1), item.id, item.header].map((k) => ({ key: k.trim().toLowerCase(), index })));
  return keys.filter((k) => k.key).sort((a, b) => b.key.length - a.key.length);
}

function lineKey(keys: { key: string; index: number }[], line: string): { index: number; rest: string } | undefined {
  const lower = line.toLowerCase().trimStart();
  const start = line.length - line.trimStart().length;
  for (const { key, index } of keys) {
    if (!lower.startsWith(key)) continue;
    const after = line.slice(start + key.length);
    const colon = /^\s*:/.exec(after);
    if (colon) return { index, rest: after.slice(colon[0].length) };
  }
  return undefined;
}

const label = (item: Item) => item.header || item.id;

/** PT3: one `<key>: <reply>` line per question; a line without a key goes on the previous question's reply. */
function readSeveral(items: Items, text: string): PlainTextReading {
  const keys = keysOf(items);
  const replies: (string | undefined)[] = items.map(() => undefined);
  const problems: AnswerProblem[] = [];
  let current: number | undefined;
  let stray: string | undefined;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const keyed = lineKey(keys, line);
    if (keyed) {
      const item = items[keyed.index];
      if (replies[keyed.index] !== undefined)
        problems.push({ questionId: item.id, problem: `is answered on two lines: keep one "${keyed.index + 1}: …" line` });
      replies[keyed.index] = keyed.rest;
      current = keyed.index;
    } else if (current !== undefined) {
      replies[current] += `\n${line}`;
    } else if (line.trim()) {
      stray ??= line.trim();
    }
  }
  items.forEach((item, i) => {
    if (replies[i] === undefined || !replies[i]!.trim())
      problems.push({ questionId: item.id, problem: `is left out: add a line "${i + 1}: <reply>" (or "${label(item)}: <reply>")` });
  });
  if (stray !== undefined && problems.length === 0)
    problems.push({ questionId: items[0].id, problem: `expects "<number>: <reply>" lines; "${stray}" names no question` });
  if (problems.length) return { outcome: 'invalid', problems };
  const answers: Answers = {};
  items.forEach((item, i) => (answers[item.id] = readItem(item, replies[i]!)));
  return checked(items, answers);
}

function checked(items: Items, answers: Answers): PlainTextReading {
  const result = normaliseAnswers(items, answers);
  return result.ok ? { outcome: 'answered', answers: result.answers } : { outcome: 'invalid', problems: result.problems };
}

/** PT4: `skip` declines the whole prompt, unless some option is labelled Skip (then it is read as that option). */
function isSkip(items: Items, text: string): boolean {
  if (text.trim().toLowerCase() !== 'skip') return false;
  return !items.some((item) => item.options.some((o) => bareLabel(o.label) === 'skip'));
}

/** PT1-PT4: reads a plain reply against every question of a prompt. */
export function readPlainTextReply(items: Items, text: string): PlainTextReading {
  if (isSkip(items, text)) return { outcome: 'skipped' };
  if (!text.trim()) return { outcome: 'invalid', problems: items.map((item) => ({ questionId: item.id, problem: 'needs an answer' })) };
  if (items.length === 1) return checked(items, { [items[0].id]: readItem(items[0], text) });
  return readSeveral(items, text);
}

/** Why a reply fits no rule, in one line a person can act on. */
export function describePlainTextProblems(items: Items, problems: AnswerProblem[]): string {
  return problems
    .map((p) => {
      const item = items.find((i) => i.id === p.questionId);
      return item ? `${label(item)} ${p.problem}` : p.problem.charAt(0).toUpperCase() + p.problem.slice(1);
    })
    .join('; ');
}

/**
 * The answers `text` gives when it reads as a choice (PT1/PT2: an option's number or label for every question, no
 * free text), else null: a chat message like `2` or `Sushi` typed while such a question waits is likely meant for it.
 */
export function readAsChoice(items: Items, text: string): Answers | null {
  if (isSkip(items, text)) return null;
  const reading = readPlainTextReply(items, text);
  if (reading.outcome !== 'answered') return null;
  const allOptions = items.every((item) => (reading.answers[item.id] ?? []).every((v) => item.options.some((o) => o.label === v)));
  return allOptions ? reading.answers : null;
}
