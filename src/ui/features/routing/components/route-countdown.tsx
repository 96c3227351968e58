import { useNow } from '../../../lib/use-now.ts';
import { formatCountdown } from '../../../../lib/route-text.ts';

/** E9: "in 4:12" until the next step. It alone ticks, so the dock around it does not re-render each second. */
export function RouteCountdown({ atMs, paused }: { atMs: number; paused?: boolean }) {
  const now = useNow(!paused, 1000);
  const left = atMs - now;
  return (
    <span role="timer" className="rt-countdown" aria-label={paused ? 'paused' : `moves on in ${formatCountdown(left)}`}>
      {paused ? '(paused)' : left > 0 ? `in ${formatCountdown(left)}` : 'moving on…'}
    </span>
  );
}
