import { formatTimeLeft } from '../lib/time-left.ts';
import { useNow } from '../../../lib/use-now.ts';

/** The countdown ticks here alone, so the form does not re-render each second (U7). */
export function LinkTimeLeft({ expiresAtMs }: { expiresAtMs: number }) {
  const now = useNow(true, 1000);
  const left = expiresAtMs - now;
  return <span role="timer">{left > 0 ? formatTimeLeft(left) : 'Expiring…'}</span>;
}
