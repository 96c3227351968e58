import { afterEach, beforeEach, vi } from 'vitest';

/**
 * The clock stands still at `now` in each test of the file (Date.now only; timers run as they do): a countdown reads
 * the same however long the machine takes to render it. Returns `now`, for the times the fixtures are built from.
 */
export function stillClock(now = Date.now()): number {
  beforeEach(() => void vi.spyOn(Date, 'now').mockReturnValue(now));
  afterEach(() => vi.mocked(Date.now).mockRestore());
  return now;
}
