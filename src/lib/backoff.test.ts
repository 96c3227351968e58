import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';

describe('backoffDelay', () => {
  it('doubles from the first wait up to the longest', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect([1, 2, 3].map((n) => backoffDelay(n, { initialMs: 50, maxMs: 120 }))).toEqual([50, 100, 120]);
  });

  it('counts an attempt below 1 as the first', () => {
    expect(backoffDelay(0)).toBe(1000);
    expect(backoffDelay(-3, { initialMs: 10 })).toBe(10);
  });

  it('with jitter, waits between half and the whole of the doubled wait', () => {
    expect(backoffDelay(3, { jitter: true, random: () => 0 })).toBe(2000);
    expect(backoffDelay(3, { jitter: true, random: () => 0.999999 })).toBe(4000);
    for (let i = 0; i < 50; i++) {
      const d = backoffDelay(2, { jitter: true });
      expect(d).toBeGreaterThanOrEqual(1000);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });
});
