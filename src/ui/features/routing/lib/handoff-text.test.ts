import { describe, expect, it } from 'vitest';
import { handoffText } from './handoff-text.ts';

describe('handoffText (E9)', () => {
  const now = new Date(2026, 11, 6, 21, 30).getTime();
  it('[E9] writes a hand-off ahead of now as the time it happens: later today, tomorrow, or its day', () => {
    expect(handoffText(new Date(2026, 11, 6, 23, 0).getTime(), now)).toBe('23:00');
    expect(handoffText(new Date(2026, 11, 7, 9, 0).getTime(), now)).toBe('tomorrow 09:00');
    expect(handoffText(new Date(2026, 11, 9, 9, 0).getTime(), now)).toBe('Dec 9 09:00');
    expect(handoffText(new Date(2027, 0, 1, 9, 5).getTime(), now)).toBe('Jan 1 09:05');
  });
});
