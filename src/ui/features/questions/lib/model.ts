import type { QuestionRecord } from '../../../../protocol/index.ts';

export function announcementFor(record: QuestionRecord): string {
  const first = record.questions[0];
  const more = record.questions.length > 1 ? ` (${record.questions.length} questions)` : '';
  return first ? `New question: ${first.header} — ${first.question}${more}` : 'New question';
}

/** Unanswered questions across the docked requests: the count a collapsed dock keeps visible (U1, U8). */
export function pendingCount(requests: QuestionRecord[]): number {
  return requests.reduce((n, r) => n + r.questions.length, 0);
}
