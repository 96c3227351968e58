import { useNow } from '../../lib/use-now.ts';

/** "4:59 left": timeouts are clamped to an hour (Q3), so minutes never need an hours field. */
export function formatTimeLeft(msLeft: number): string {
  const total = Math.max(0, Math.ceil(msLeft / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')} left`;
}

/** The countdown ticks here alone, so the form does not re-render each second (U7). */
export function LinkTimeLeft({ expiresAtMs }: { expiresAtMs: number }) {
  const now = useNow(true, 1000);
  const left = expiresAtMs - now;
  return <span role="timer">{left > 0 ? formatTimeLeft(left) : 'Expiring…'}</span>;
}
