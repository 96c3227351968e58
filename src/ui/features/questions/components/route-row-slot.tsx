import type { QuestionRecord } from '../../../../protocol/index.ts';
import { LazyBoundary } from '../../../components/lazy-boundary.tsx';
import { lazyWithRetry } from '../../../lib/lazy-with-retry.ts';

// E9: routed questions are rare; their row (and its hand-off popover) is a chunk of its own.
const RouteRow = lazyWithRetry(() => import('../../routing/components/route-row.tsx'), (m) => m.default);

/**
 * E3, E4, E6, E9: a routed request's row wherever it is answered (the dock, its own page): who it waits for and when it
 * moves on, "I'm on it" and "Hand off…" for those it waits for, read-only words for anyone else. Nothing when unrouted.
 */
export function RouteRowSlot({ record }: { record: QuestionRecord }) {
  if (!record.route) return null;
  return (
    <LazyBoundary pending={null} failed={null}>
      <RouteRow record={{ ...record, route: record.route }} />
    </LazyBoundary>
  );
}
