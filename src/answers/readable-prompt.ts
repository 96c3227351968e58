/**
 * PRODUCT H3: a prompt rendered as readable text for surfaces without a structured form (chat channels, plain
 * terminals): each question numbered, its options numbered beneath it, then one line saying how to reply
 * (the reply is read by the plain-text rules, PROTOCOL PT1-PT4). Also the outcome line a posted prompt
 * turns into once it resolves (H5). Framework-free: imports only the protocol.
 */
import { own } from '../protocol/rules.ts';
import type { QuestionRecord } from '../protocol/index.ts';
import { kindOf } from './kinds/index.ts';
import { answersAsNamed, endedOutcome, summaryLine } from './summary.ts';

/** One question as a text surface sees it; `url` is the optional page to finish a step on (Q2, U16). */
export type ReadableItem = QuestionRecord['questions'][number] & { url?: string };

/** A record's items, or the record itself. */
export type ReadableInput = readonly ReadableItem[] | { questions: readonly ReadableItem[] };

const itemsOf = (input: ReadableInput): readonly ReadableItem[] => ('questions' in input ? input.questions : input);

// Chat platforms collapse runs of whitespace anyway; a line break inside a question would break the numbering.
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The title line of question n: `1. Environment: Which environment?` plus how many may be chosen. */
function titleLine(item: ReadableItem, n: number): string {
  const header = oneLine(item.header);
  const question = oneLine(item.question);
  const title = header && header.toLowerCase() !== question.toLowerCase() ? `${header}: ${question}` : question;
  return `${n}. ${title}${kindOf(item).titleNote(item)}`;
}

/** The option lines beneath a question, numbered from 1, each description after a dash. */
function optionLines(item: ReadableItem): string[] {
  return item.options.map((option, i) => {
    const description = option.description ? oneLine(option.description) : '';
    return `   ${i + 1}. ${oneLine(option.label)}${description ? ` — ${description}` : ''}`;
  });
}

/** The one line saying how to reply, worded for the shape of the prompt (PT1-PT4). */
export function replyHint(input: ReadableInput): string {
  const items = itemsOf(input);
  // PT4: `skip` declines the prompt unless an option is itself labelled Skip.
  const skip = items.some((item) => item.options.some((o) => o.label.trim().toLowerCase() === 'skip')) ? '' : ', or skip';
  if (items.length > 1) {
    const commas = items.map((item) => kindOf(item).severalNote(item)).find((note) => note) ?? '';
    return `Reply with one line per question: its number, then a number, an option or your own words (like 1: 2)${commas}${skip}.`;
  }
  const only = items[0];
  return only ? kindOf(only).replyHint(only, skip) : `Reply with a number, an option or your own words${skip}.`;
}

/** The whole prompt as text: numbered questions, numbered options beneath each, any link, then the reply hint (or `hint`). */
export function readablePrompt(input: ReadableInput, hint?: string): string {
  const items = itemsOf(input);
  const blocks = items.map((item, i) => {
    const lines = [titleLine(item, i + 1), ...optionLines(item)];
    if (item.url) lines.push(`   Open link: ${item.url}`);
    return lines.join('\n');
  });
  return [...blocks, hint ?? replyHint(items)].join('\n\n');
}

type Outcome = Pick<QuestionRecord, 'status' | 'answers' | 'questions'>;

/**
 * H5: the outcome a posted prompt shows once resolved: `Answered: Staging` (several questions:
 * `Answered: Environment: Staging · Notify: Email, Slack`), `Skipped`, `Expired`, `Cancelled`; null while pending.
 */
export function readableOutcome(record: Outcome): string | null {
  if (record.status !== 'answered') return endedOutcome(record.status, true);
  if (!record.answers) return 'Answered';
  const answers = answersAsNamed(record.questions, record.answers);
  if (record.questions.length === 1) return `Answered: ${(own(answers, record.questions[0].id) ?? []).join(', ')}`;
  return `Answered: ${summaryLine(record.questions, answers)}`;
}
