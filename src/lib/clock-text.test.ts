import { describe, expect, it } from 'vitest';
import { clockText, dayAndClockText, dayText, fullTimeText } from './clock-text.ts';

describe('one clock for every time of day (U18, X1)', () => {
  it('[U18] a 24-hour clock with its minutes padded, the day named from a table', () => {
    const evening = new Date(2026, 11, 6, 18, 8);
    expect(clockText(evening)).toBe('18:08');
    expect(clockText(new Date(2026, 0, 9, 7, 4).getTime())).toBe('07:04');
    expect(clockText(new Date(2026, 0, 9, 0, 0))).toBe('00:00');
    expect(dayText(evening)).toBe('Dec 6');
    expect(dayAndClockText(evening)).toBe('Dec 6 18:08');
    expect(fullTimeText(evening.getTime())).toBe('Dec 6, 2026, 18:08');
  });
});
