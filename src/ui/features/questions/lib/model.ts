import type { Answers, QuestionRecord } from '../../../../protocol/index.ts';

export type QuestionItemRecord = QuestionRecord['questions'][number];

/** One question's draft: the chosen labels and the Other text, kept apart so typed text never turns into a choice (U6). */
export type ItemDraft = { chosen: string[]; other: string };
export const EMPTY_ITEM: ItemDraft = Object.freeze({ chosen: Object.freeze([]) as unknown as string[], other: '' });

/** The values sent for one question: chosen labels in option order, then the trimmed Other text (U4). */
export function itemAnswer(item: QuestionItemRecord, draft: ItemDraft | undefined): string[] {
  const d = draft ?? EMPTY_ITEM;
  const other = d.other.trim();
  const chosen = item.options.map((o) => o.label).filter((label) => d.chosen.includes(label));
  if (!item.multiSelect) return chosen.length ? [chosen[0]] : other ? [other] : [];
  return other ? [...chosen, other] : chosen;
}

/** Answers for the whole prompt, or the ids of the questions still unanswered. */
export function collectAnswers(
  record: QuestionRecord,
  drafts: Record<string, ItemDraft> | undefined,
): { ok: true; answers: Answers } | { ok: false; missing: string[] } {
  const answers: Answers = {};
  const missing: string[] = [];
  for (const item of record.questions) {
    const values = itemAnswer(item, drafts?.[item.id]);
    if (values.length) answers[item.id] = values;
    else missing.push(item.id);
  }
  return missing.length ? { ok: false, missing } : { ok: true, answers };
}

/** Compares answers as the gateway stores them (labels may differ in case from typed text), key order aside. */
export function answersFingerprint(answers: Answers | undefined): string {
  const keys = Object.keys(answers ?? {}).sort();
  return JSON.stringify(keys.map((k) => [k, [...new Set(answers![k].map((v) => v.trim().toLowerCase()))].sort()]));
}

/** The draft that gives back `answers`: option labels become choices again, anything else Other text (U9 Discard). */
export function draftFromAnswers(record: Pick<QuestionRecord, 'questions'>, answers: Answers): Record<string, ItemDraft> {
  const items: Record<string, ItemDraft> = {};
  for (const item of record.questions) {
    const values = answers[item.id] ?? [];
    const labelOf = (v: string) => item.options.find((o) => o.label.toLowerCase() === v.trim().toLowerCase())?.label;
    const chosen = values.map(labelOf).filter((l): l is string => l !== undefined);
    const other = values.filter((v) => labelOf(v) === undefined).join(', ');
    // Single-select holds a choice or text, never both (U4).
    items[item.id] = item.multiSelect ? { chosen, other } : other ? { chosen: [], other } : { chosen: chosen.slice(0, 1), other: '' };
  }
  return items;
}

/** "4:59 left": timeouts are clamped to an hour (Q3), so minutes never need an hours field. */
export function formatTimeLeft(msLeft: number): string {
  const total = Math.max(0, Math.ceil(msLeft / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')} left`;
}

export function announcementFor(record: QuestionRecord): string {
  const first = record.questions[0];
  const more = record.questions.length > 1 ? ` (${record.questions.length} questions)` : '';
  return first ? `New question: ${first.header} — ${first.question}${more}` : 'New question';
}

/** Unanswered questions across the docked requests: the count a collapsed dock keeps visible (U1, U8). */
export function pendingCount(requests: QuestionRecord[]): number {
  return requests.reduce((n, r) => n + r.questions.length, 0);
}
