import { describe, expect, it } from 'vitest';
import { MAX_FRAME_DEPTH, nestsDeeperThan } from './frame-depth.ts';

const bytes = (s: string) => Buffer.from(s);

describe('frame depth', () => {
  it('[S5] finds nesting past the limit without parsing, and ignores brackets inside strings', () => {
    expect(nestsDeeperThan(bytes('{"a":[{"b":[1]}]}'), 4)).toBe(false);
    expect(nestsDeeperThan(bytes('{"a":[{"b":[[1]]}]}'), 4)).toBe(true);
    expect(nestsDeeperThan(bytes(`{"text":"${'['.repeat(500)}"}`), 2)).toBe(false);
    expect(nestsDeeperThan(bytes(`{"text":"a\\"${'{'.repeat(500)}"}`), 2)).toBe(false);
    expect(nestsDeeperThan(bytes('['.repeat(MAX_FRAME_DEPTH + 1) + ']'.repeat(MAX_FRAME_DEPTH + 1)), MAX_FRAME_DEPTH)).toBe(true);
    expect(nestsDeeperThan(bytes('['.repeat(MAX_FRAME_DEPTH) + ']'.repeat(MAX_FRAME_DEPTH)), MAX_FRAME_DEPTH)).toBe(false);
  });
});
