import type { Answers, QuestionRecord } from '../../../protocol/index.ts';

export type QuestionItemRecord = QuestionRecord['questions'][number];

/** One question's draft: chosen labels and Other text kept apart, so typed text never turns into a choice (U6). */
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
  record: Pick<QuestionRecord, 'questions'>,
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

/** The fingerprint of a skip, kept beside answer fingerprints. */
export const SKIP_FINGERPRINT = 'skip';

export type LinkOutcome = 'Answered' | 'Answered elsewhere' | 'Skipped' | 'Expired' | 'Cancelled';

/** How an ended record reads on the link page (U7 words); `ours` when this page sent exactly what was stored. */
export function linkOutcome(
  record: QuestionRecord,
  sentHere: string[],
  identity: string | undefined,
): { outcome: LinkOutcome; ours: boolean } | null {
  const sameIdentity = !identity || !record.resolvedBy || record.resolvedBy.identity === identity;
  switch (record.status) {
    case 'answered': {
      const ours = sameIdentity && sentHere.includes(answersFingerprint(record.answers));
      return { outcome: ours ? 'Answered' : 'Answered elsewhere', ours };
    }
    case 'skipped':
      return { outcome: 'Skipped', ours: sameIdentity && sentHere.includes(SKIP_FINGERPRINT) };
    case 'expired':
      return { outcome: 'Expired', ours: false };
    case 'cancelled':
      return { outcome: 'Cancelled', ours: false };
    default:
      return null;
  }
}
