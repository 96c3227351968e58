import { useNow } from '../../../lib/use-now.ts';
import { formatTimeLeft } from '../lib/time-left.ts';

/** Amber under two minutes, red under thirty seconds. The countdown ticks here alone, so the rest of the dock does not re-render each second (U7). */
export function TimeLeft({ expiresAtMs }: { expiresAtMs: number }) {
  const now = useNow(true, 1000);
  const left = expiresAtMs - now;
  return (
    <span role="timer" className="qd-time" data-urgency={left < 30_000 ? 'critical' : left < 120_000 ? 'soon' : undefined}>
      {left > 0 ? formatTimeLeft(left) : 'Expiring…'}
    </span>
  );
}
