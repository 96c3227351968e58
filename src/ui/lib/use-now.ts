import { useEffect, useState } from 'react';

/**
 * A time taken this recently is the one to show when a countdown starts: the countdowns print whole seconds, so
 * taking it again costs a second render and commit (in the task that draws a question's dock) and shows nothing new.
 */
export const NOW_FRESH_MS = 100;

/** The current time, refreshed every `intervalMs` while `active` (countdowns). */
export function useNow(active: boolean, intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    // The time drawn may be old (the countdown started after it mounted): take it again, unless it is still fresh.
    setNow((drawn) => {
      const at = Date.now();
      return at - drawn < NOW_FRESH_MS ? drawn : at;
    });
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}
