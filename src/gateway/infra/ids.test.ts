import { describe, expect, it } from 'vitest';
import { randomSalt } from './ids.ts';

describe('the answers\' salts from a pool of random bytes', () => {
  it('[L4] every salt is 16 bytes of its own: none repeats over several refills, and a refill leaves those handed out as they were', () => {
    const first = randomSalt(16);
    const kept = Buffer.from(first);
    const salts = Array.from({ length: 1_000 }, () => randomSalt(16));
    expect(first).toEqual(kept);
    expect(new Set([first, ...salts].map((s) => s.toString('hex'))).size).toBe(1_001);
    for (const s of salts) expect(s.length).toBe(16);
  });
});
