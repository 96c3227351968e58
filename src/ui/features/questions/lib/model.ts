import type { QuestionRecord } from '../../../../protocol/index.ts';
import type { MarksOf } from '../hooks/use-local-marks.ts';
import { inDock } from './placement.ts';

export function announcementFor(record: QuestionRecord): string {
  const first = record.questions[0];
  const more = record.questions.length > 1 ? ` (${record.questions.length} questions)` : '';
  return first ? `New question: ${first.header} — ${first.question}${more}` : 'New question';
}

/**
 * Requests waiting in each session's dock, by session key: one count of requests everywhere (the collapsed bar's
 * "N pending", the request arrows, the sessions list), never counting what this browser skipped or queued (U1, U6, U8).
 */
export function pendingBySession(records: QuestionRecord[], marksOf: MarksOf): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of records)
    if (r.sessionKey !== undefined && inDock(r, r.sessionKey, marksOf(r.id))) counts.set(r.sessionKey, (counts.get(r.sessionKey) ?? 0) + 1);
  return counts;
}
