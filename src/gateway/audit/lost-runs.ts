import type { FilledHoles } from '../store/audit-rows.ts';

/**
 * L7: the runs of lost indexes an acknowledgement lists (in its entry and its answer); past them only counts. Every
 * lost index still gets its `audit.lost` entry: the list is what is said about them, not what is recorded.
 */
export const LOST_RUNS_LISTED = 100;

/** What an acknowledgement says of the indexes it recorded as lost. */
export type LostSummary = {
  /** The first LOST_RUNS_LISTED runs, as `"2,5-7"`. */
  lost: string;
  /** Every index recorded as lost. */
  lostCount: number;
  /** How many runs there were, only when more than `lost` lists. */
  lostRuns?: number;
};

/** What an acknowledgement says of the holes it filled (the store lists the first LOST_RUNS_LISTED runs), or undefined when none was lost. */
export function lostSummary({ runs, runCount, lostCount }: FilledHoles): LostSummary | undefined {
  if (runCount === 0) return undefined;
  const listed = runs.slice(0, LOST_RUNS_LISTED).map(({ from, to }) => (from === to ? `${from}` : `${from}-${to}`));
  return { lost: listed.join(','), lostCount, ...(runCount > LOST_RUNS_LISTED ? { lostRuns: runCount } : {}) };
}
