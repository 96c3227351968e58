/**
 * The one-line summary of a resolved prompt: `Header: value, value` per question, for the model's result text (T2),
 * the terminal's notice (V5 `✓ Environment: Staging · Notify: Email, Slack`) and any other text surface; and the
 * outcome words every surface shows for an ended question (U7).
 */
import { own } from '../protocol/rules.ts';
import type { Answers, QuestionRecord, QuestionStatus } from '../protocol/index.ts';

type Item = Pick<QuestionRecord['questions'][number], 'id' | 'header' | 'question'>;

import { withoutRecommendedMark } from './kinds/labels.ts';

export { withoutRecommendedMark };

/** The answers with each chosen option named without its ` (Recommended)` mark; free text stays as typed. */
export function answersAsNamed(items: readonly Pick<QuestionRecord['questions'][number], 'id' | 'options'>[], answers: Answers): Answers {
  const out: Answers = {};
  for (const item of items) {
    const labels = new Set(item.options.map((o) => o.label));
    out[item.id] = (own(answers, item.id) ?? []).map((v) => (labels.has(v) ? withoutRecommendedMark(v) : v));
  }
  return out;
}

/** The outcome of an ended question, as every surface words it (U7, V5). */
export type EndedOutcome = 'Answered' | 'Answered elsewhere' | 'Skipped' | 'Expired' | 'Cancelled';

/** What reads in place of a question's answer when it got none. */
export const NO_ANSWER_VALUE = '(no answer)';

/** T2: one `Header: value, value` line per question, the question's wording when it has no header. */
export function answerLines(items: readonly Item[], answers: Answers): string[] {
  return items.map((item) => {
    const values = own(answers, item.id);
    return `${item.header || item.question}: ${values && values.length ? values.join(', ') : NO_ANSWER_VALUE}`;
  });
}

/** The lines of `answerLines` on one line, parted by ` · ` (V5). */
export function summaryLine(items: readonly Item[], answers: Answers): string {
  return answerLines(items, answers).join(' · ');
}

/**
 * The word for an ended record: an answer is `Answered` when `ours` (this surface sent what was stored), else
 * `Answered elsewhere`. Null while the record is pending.
 */
export function endedOutcome(status: QuestionStatus, ours: boolean): EndedOutcome | null {
  switch (status) {
    case 'answered':
      return ours ? 'Answered' : 'Answered elsewhere';
    case 'skipped':
      return 'Skipped';
    case 'expired':
      return 'Expired';
    case 'cancelled':
      return 'Cancelled';
    default:
      return null;
  }
}

/**
 * V5: the compact notice a text surface keeps after resolution. Answered here: `✓ ` and the summary line (options
 * named without their ` (Recommended)` mark: `✓ Environment: Staging`); otherwise
 * the outcome word alone. Null while pending.
 */
export function resolvedNotice(record: Pick<QuestionRecord, 'status' | 'questions' | 'answers'>, ours: boolean): string | null {
  const outcome = endedOutcome(record.status, ours);
  if (outcome !== 'Answered') return outcome;
  return `✓ ${summaryLine(record.questions, answersAsNamed(record.questions, record.answers ?? {}))}`;
}
