import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time.ts';

describe('relativeTime', () => {
  const now = new Date(2026, 11, 1, 12, 0, 0).getTime();
  it('says how long ago in words: just now, minutes, hours, yesterday, then the date', () => {
    expect(relativeTime(now - 10_000, now)).toBe('just now');
    expect(relativeTime(now - 2 * 60_000, now)).toBe('2 min ago');
    expect(relativeTime(now - 59 * 60_000, now)).toBe('59 min ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(relativeTime(new Date(2026, 10, 30, 9, 0).getTime(), now)).toBe('yesterday');
    expect(relativeTime(new Date(2026, 10, 20, 9, 0).getTime(), now)).not.toMatch(/ago|yesterday/);
  });
});
