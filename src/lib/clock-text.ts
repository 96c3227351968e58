/**
 * One way to write a time of day on every surface: a 24-hour clock (`18:08`) and a short English month (`Dec 6`), as a
 * session's title names the run it started with. The month comes from a table, not `toLocaleString`, whose first call
 * loads ICU's locale data (the hook starts with this, X1); the Control UI writes its times with the same functions, so
 * a person never reads `06:08 PM` beside `18:08`.
 */

/** English's short month names, as `toLocaleString('en', { month: 'short' })` gives them. */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const two = (n: number) => String(n).padStart(2, '0');
const dateOf = (at: Date | number) => (typeof at === 'number' ? new Date(at) : at);

/** The local time of day: `18:08`, `07:04`. */
export function clockText(at: Date | number): string {
  const d = dateOf(at);
  return `${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** The local day: `Dec 6`. */
export function dayText(at: Date | number): string {
  const d = dateOf(at);
  return `${MONTHS[d.getMonth()]} ${d.getDate()}`;
}

/** The local day and minute: `Dec 6 18:08`. */
export const dayAndClockText = (at: Date | number): string => `${dayText(at)} ${clockText(at)}`;

/** The whole instant, for a hover title: `Dec 6, 2026, 18:08`. */
export const fullTimeText = (at: Date | number): string => `${dayText(at)}, ${dateOf(at).getFullYear()}, ${clockText(at)}`;
