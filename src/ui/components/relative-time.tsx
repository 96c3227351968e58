import { exactTime, relativeTime, useMinuteClock } from '../lib/relative-time.ts';

/** "2 min ago", with the exact time on hover and in `dateTime`. */
export function RelativeTime({ ms, className }: { ms: number; className?: string }) {
  const now = useMinuteClock();
  return (
    <time className={className} dateTime={new Date(ms).toISOString()} title={exactTime(ms)}>
      {relativeTime(ms, Math.max(now, ms))}
    </time>
  );
}
