import { Text } from 'ink';
import { useEffect, useState } from 'react';

/** `14:32 left`: minutes and seconds until `expiresAtMs`. */
export function formatTimeLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')} left`;
}

/** The time, read again every second, for a countdown (V3, E9). */
export function useSecondClock(now: () => number = Date.now): number {
  const [at, setAt] = useState(now);
  useEffect(() => {
    const timer = setInterval(() => setAt(now()), 1000);
    return () => clearInterval(timer);
  }, [now]);
  return at;
}

/** V3: the time remaining, every second. */
export function TimeLeft({ expiresAtMs, now = Date.now }: { expiresAtMs: number; now?: () => number }) {
  const at = useSecondClock(now);
  return <Text color="yellow">{formatTimeLeft(expiresAtMs - at)}</Text>;
}
