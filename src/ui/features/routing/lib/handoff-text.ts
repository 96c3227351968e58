import { clockText, dayAndClockText } from '../../../../lib/clock-text.ts';

const startOfDay = (ms: number) => new Date(ms).setHours(0, 0, 0, 0);

/**
 * When the next person on call takes over, in the UI's one clock (X1): `21:00` later today, `tomorrow 09:00`, else
 * `Dec 9 09:00`. A hand-off is ahead of now, so it is never written as time ago ("just now").
 */
export function handoffText(atMs: number, nowMs: number): string {
  const days = Math.round((startOfDay(atMs) - startOfDay(nowMs)) / 86_400_000);
  if (days === 0) return clockText(atMs);
  if (days === 1) return `tomorrow ${clockText(atMs)}`;
  return dayAndClockText(atMs);
}
