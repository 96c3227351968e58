/** "4:59 left": timeouts are clamped to an hour (Q3), so minutes never need an hours field. */
export function formatTimeLeft(msLeft: number): string {
  const total = Math.max(0, Math.ceil(msLeft / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')} left`;
}
