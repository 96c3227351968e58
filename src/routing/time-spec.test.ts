import { describe, expect, it } from 'vitest';
import { inWindow, parseHandoff, parseRotation, parseWindow } from './time-spec.ts';

const value = <T>(r: { ok: true; value: T } | { ok: false; problem: string }): T => {
  if (!r.ok) throw new Error(r.problem);
  return r.value;
};

describe('schedule layer texts', () => {
  it('[E1] rotations: daily, weekly and hours that divide a day or fill whole days', () => {
    expect(value(parseRotation('daily')).shiftMinutes).toBe(1440);
    expect(value(parseRotation('weekly')).shiftMinutes).toBe(10080);
    expect(value(parseRotation('12h')).shiftMinutes).toBe(720);
    expect(value(parseRotation('48h')).shiftMinutes).toBe(2880);
    const odd = parseRotation('5h');
    expect(odd.ok === false && odd.problem).toMatch(/must divide a day/);
    for (const bad of ['monthly', '0h', 'h', '12', 12]) expect(parseRotation(bad).ok, String(bad)).toBe(false);
  });

  it('[E1] handoffs: a weekday and a time, or a time alone', () => {
    expect(value(parseHandoff('mon 09:00'))).toEqual({ weekday: 1, minute: 540 });
    expect(value(parseHandoff('sun 23:30'))).toEqual({ weekday: 7, minute: 1410 });
    expect(value(parseHandoff('07:15'))).toEqual({ minute: 435 });
    for (const bad of ['monday 09:00', 'mon 9:00', 'mon 24:00', 'mon 09:60', 'mon  09:00', '', 'mon']) {
      const r = parseHandoff(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.problem).toContain('"mon 09:00"');
    }
  });

  it('[E1] windows: day ranges, lists, and hours that may run past midnight', () => {
    expect(value(parseWindow('mon-fri 09:00-18:00'))).toMatchObject({ days: [1, 2, 3, 4, 5], startMinute: 540, endMinute: 1080 });
    expect(value(parseWindow('fri-mon 00:00-24:00')).days).toEqual([1, 5, 6, 7]);
    expect(value(parseWindow('sat,sun 10:00-12:00')).days).toEqual([6, 7]);
    for (const bad of ['mon-fri', 'mon-fri 09:00', 'weekdays 09:00-18:00', 'mon-fri 09:00-09:00', 'mon-tue-wed 09:00-10:00', 'mon 09:00-25:00'])
      expect(parseWindow(bad).ok, bad).toBe(false);
  });

  it('[E1] a window past midnight covers the early hours of the next day', () => {
    const night = value(parseWindow('fri 22:00-06:00'));
    expect(inWindow(night, 5, 23 * 60)).toBe(true);
    expect(inWindow(night, 6, 5 * 60)).toBe(true);
    expect(inWindow(night, 6, 7 * 60)).toBe(false);
    expect(inWindow(night, 5, 5 * 60)).toBe(false);
    const day = value(parseWindow('mon-fri 09:00-18:00'));
    expect(inWindow(day, 3, 9 * 60)).toBe(true);
    expect(inWindow(day, 3, 18 * 60)).toBe(false);
    expect(inWindow(day, 6, 12 * 60)).toBe(false);
  });
});
