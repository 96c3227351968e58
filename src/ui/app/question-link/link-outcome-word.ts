import type { QuestionRecord } from '../../../protocol/index.ts';
import { resolvedHere } from '../../lib/questions/answers.ts';

export type LinkOutcome = 'Answered' | 'Answered elsewhere' | 'Skipped' | 'Expired' | 'Cancelled';

/** How an ended record reads on the link page (U7 words); `ours` when this browser sent exactly what was stored. */
export function linkOutcome(
  record: QuestionRecord,
  sentHere: readonly string[],
  identity: string | undefined,
): { outcome: LinkOutcome; ours: boolean } | null {
  const ours = resolvedHere(record, sentHere, identity);
  switch (record.status) {
    case 'answered':
      return { outcome: ours ? 'Answered' : 'Answered elsewhere', ours };
    case 'skipped':
      return { outcome: 'Skipped', ours };
    case 'expired':
      return { outcome: 'Expired', ours: false };
    case 'cancelled':
      return { outcome: 'Cancelled', ours: false };
    default:
      return null;
  }
}
