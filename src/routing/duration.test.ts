import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration.ts';

describe('routing durations', () => {
  it('[E1] reads hours, minutes and seconds in that order', () => {
    expect(parseDuration('5m')).toEqual({ ok: true, ms: 300_000 });
    expect(parseDuration('90s')).toEqual({ ok: true, ms: 90_000 });
    expect(parseDuration('1h30m')).toEqual({ ok: true, ms: 5_400_000 });
    expect(parseDuration('2h5s')).toEqual({ ok: true, ms: 7_205_000 });
  });

  it('[E1] refuses anything else, saying what a duration looks like', () => {
    for (const bad of ['', '5', '5 m', '1.5h', '30m1h', '5min', '-5m', 'h', ' 5m', 5, null]) {
      const r = parseDuration(bad);
      expect(r.ok, String(bad)).toBe(false);
      if (!r.ok) expect(r.problem).toContain('a duration such as');
    }
  });

  it('[E9] prints durations compactly', () => {
    expect(formatDuration(5_400_000)).toBe('1h30m');
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(0)).toBe('0s');
  });
});
