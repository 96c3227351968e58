import { useNow } from '../../../lib/use-now.ts';
import { formatTimeLeft } from '../lib/time-left.ts';

/** How the chip reads the time left: calm, then amber under two minutes, then red under thirty seconds. */
export function urgencyOf(msLeft: number): 'calm' | 'soon' | 'critical' {
  return msLeft < 30_000 ? 'critical' : msLeft < 120_000 ? 'soon' : 'calm';
}

/** The time-left chip. The countdown ticks here alone, so the rest of the dock does not re-render each second (U7). */
export function TimeLeft({ expiresAtMs }: { expiresAtMs: number }) {
  const now = useNow(true, 1000);
  const left = expiresAtMs - now;
  return (
    <span role="timer" className="qd-time" data-urgency={urgencyOf(left)}>
      <svg className="qd-time-icon" width="12" height="12" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.75" aria-hidden="true" focusable="false">
        <circle cx="8" cy="9" r="5.5" />
        <path d="M8 6v3l2 1.5M6.5 1.5h3" strokeLinecap="round" />
      </svg>
      {left > 0 ? formatTimeLeft(left) : 'Expiring…'}
    </span>
  );
}
