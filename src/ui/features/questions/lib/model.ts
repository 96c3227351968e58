import type { Answers, QuestionRecord } from '../../../../protocol/index.ts';

export type QuestionItemRecord = QuestionRecord['questions'][number];

/** One question's draft: the chosen labels and the Other text, kept apart so typed text never turns into a choice (U6). */
export type ItemDraft = { chosen: string[]; other: string };
export const EMPTY_ITEM: ItemDraft = Object.freeze({ chosen: Object.freeze([]) as unknown as string[], other: '' });

/** The outcome word a summary shows (U7, U8). */
export type Outcome = 'Answered' | 'Answered elsewhere' | 'Skipped' | 'Expired' | 'Cancelled' | 'No longer pending' | 'Pending';

/** A question belongs in a session's dock when pending, for that session or sessionless, and not retired unless reopened. */
export function isDockRequest(record: QuestionRecord, sessionKey: string, reopened: Record<string, true>): boolean {
  if (record.status !== 'pending') return false;
  if (record.sessionKey !== undefined && record.sessionKey !== sessionKey) return false;
  return record.retiredAtMs === undefined || reopened[record.id] === true;
}

/** The request to show: the remembered one while still pending, else the oldest blocking one, else the oldest. */
export function pickCurrent(requests: QuestionRecord[], currentId: string | null): QuestionRecord | undefined {
  return (
    requests.find((r) => r.id === currentId) ?? requests.find((r) => r.mode === 'blocking') ?? requests[0]
  );
}

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

/**
 * "Answered" only when this browser sent exactly the stored answers: one operator token may answer from the TUI
 * or another browser too, so the identity alone cannot tell here from elsewhere.
 */
export function outcomeOf(record: QuestionRecord, ctx: { sentHere: string | undefined; identity: string | undefined }): Outcome {
  switch (record.status) {
    case 'answered': {
      const sameIdentity = !ctx.identity || !record.resolvedBy || record.resolvedBy.identity === ctx.identity;
      const ours = ctx.sentHere !== undefined && ctx.sentHere === answersFingerprint(record.answers);
      return ours && sameIdentity ? 'Answered' : 'Answered elsewhere';
    }
    case 'skipped':
      return 'Skipped';
    case 'expired':
      return 'Expired';
    case 'cancelled':
      return 'Cancelled';
    default:
      return record.retiredAtMs !== undefined ? 'No longer pending' : 'Pending';
  }
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
