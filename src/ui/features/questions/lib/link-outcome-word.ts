import type { QuestionRecord } from '../../../../protocol/index.ts';
import { endedOutcome, type EndedOutcome } from '../../../../answers/summary.ts';
import { resolvedHere } from './resolved-here.ts';

export type LinkOutcome = EndedOutcome;

/** How an ended record reads on the link page (U7 words); `ours` when this browser sent exactly what was stored. */
export function linkOutcome(
  record: QuestionRecord,
  sentHere: readonly string[],
  identity: string | undefined,
): { outcome: LinkOutcome; ours: boolean } | null {
  const ours = resolvedHere(record, sentHere, identity);
  const outcome = endedOutcome(record.status, ours);
  return outcome ? { outcome, ours } : null;
}
