/** E1: the small time texts of a schedule layer: a rotation ("daily", "weekly", "<n>h"), a handoff ("mon 09:00"), a window ("mon-fri 09:00-18:00"). */

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** ISO weekday numbers, as luxon counts them: Monday 1 .. Sunday 7. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** A rotation as wall-clock minutes per shift (a day is 1440 whatever its real length across a daylight-saving change). */
export type Rotation = { text: string; shiftMinutes: number };
/** When shifts change: a weekday (1-7; absent for "HH:MM") and minutes after local midnight. */
export type Handoff = { weekday?: number; minute: number };
/** A window a layer covers, starting on each of `days`; `endMinute <= startMinute` runs past midnight into the next day. */
export type Window = { text: string; days: number[]; startMinute: number; endMinute: number };

export function parseRotation(text: unknown): Parsed<Rotation> {
  const shape = '"daily", "weekly" or "<n>h" such as "12h"';
  if (text === 'daily') return { ok: true, value: { text, shiftMinutes: 1440 } };
  if (text === 'weekly') return { ok: true, value: { text, shiftMinutes: 7 * 1440 } };
  const m = typeof text === 'string' ? /^([1-9]\d{0,3})h$/.exec(text) : null;
  if (!m) return { ok: false, problem: `must be ${shape}, got ${JSON.stringify(text)}` };
  const hours = Number(m[1]);
  // Shifts that neither divide a day nor fill whole days would hand off at a different hour each day.
  if (24 % hours !== 0 && hours % 24 !== 0)
    return { ok: false, problem: `"${text}": the hours must divide a day (1, 2, 3, 4, 6, 8, 12) or be whole days (24, 48, ...)` };
  return { ok: true, value: { text: text as string, shiftMinutes: hours * 60 } };
}

function parseClock(text: string, allow24: boolean): number | null {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(text);
  if (!m) return null;
  const minute = Number(m[1]) * 60 + Number(m[2]);
  if (minute > 1440 || (minute === 1440 && !allow24)) return null;
  return minute;
}

function parseDay(text: string): number | null {
  const i = (WEEKDAYS as readonly string[]).indexOf(text);
  return i < 0 ? null : i + 1;
}

export function parseHandoff(text: unknown): Parsed<Handoff> {
  const shape = 'a weekday and a time such as "mon 09:00" (or "09:00" for daily and hourly rotations)';
  if (typeof text !== 'string') return { ok: false, problem: `must be ${shape}` };
  const parts = text.split(' ');
  const clock = parseClock(parts[parts.length - 1], false);
  const weekday = parts.length === 2 ? parseDay(parts[0]) : undefined;
  if (parts.length > 2 || clock === null || weekday === null) return { ok: false, problem: `must be ${shape}, got "${text}"` };
  return { ok: true, value: weekday === undefined ? { minute: clock } : { weekday, minute: clock } };
}

/** Days as "mon", "mon-fri", "fri-mon" (wrapping) or a comma list of those. */
function parseDays(text: string): number[] | null {
  const days = new Set<number>();
  for (const part of text.split(',')) {
    const [from, to, extra] = part.split('-');
    const a = parseDay(from);
    const b = to === undefined ? a : parseDay(to);
    if (a === null || b === null || extra !== undefined) return null;
    for (let d = a; ; d = (d % 7) + 1) {
      days.add(d);
      if (d === b) break;
    }
  }
  return [...days].sort((x, y) => x - y);
}

export function parseWindow(text: unknown): Parsed<Window> {
  const shape = 'days and hours such as "mon-fri 09:00-18:00" (times in the schedule\'s time zone; "22:00-06:00" runs past midnight)';
  if (typeof text !== 'string') return { ok: false, problem: `must be ${shape}` };
  const [daysText, hoursText, extra] = text.split(' ');
  const days = daysText ? parseDays(daysText) : null;
  const [startText, endText, more] = (hoursText ?? '').split('-');
  const startMinute = startText ? parseClock(startText, false) : null;
  const endMinute = endText ? parseClock(endText, true) : null;
  if (extra !== undefined || more !== undefined || !days || startMinute === null || endMinute === null)
    return { ok: false, problem: `must be ${shape}, got "${text}"` };
  if (startMinute === endMinute) return { ok: false, problem: `"${text}": the window starts and ends at the same time` };
  return { ok: true, value: { text, days, startMinute, endMinute } };
}

/** Whether a local weekday and minute fall in the window. */
export function inWindow(w: Window, weekday: number, minute: number): boolean {
  if (w.endMinute > w.startMinute) return w.days.includes(weekday) && minute >= w.startMinute && minute < w.endMinute;
  const yesterday = weekday === 1 ? 7 : weekday - 1;
  return (w.days.includes(weekday) && minute >= w.startMinute) || (w.days.includes(yesterday) && minute < w.endMinute);
}
