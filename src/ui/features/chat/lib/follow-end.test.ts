import { describe, expect, it } from 'vitest';
import { followsAfterScroll } from './use-transcript-virtualizer.ts';

const at = (scrollTop: number, scrollHeight: number, clientHeight: number) => ({ scrollTop, scrollHeight, clientHeight });

describe('following the conversation end (C5, U1)', () => {
  it('[U1] a log that shrank under a pending scroll event (the dock opened) still follows: the reader did not move', () => {
    // At the end of a 3000 px log in a 700 px view; then the dock takes 500 px before the scroll event is read.
    expect(followsAfterScroll(true, 2300, at(2300, 3000, 200))).toBe(true);
  });

  it('[U1] the view moved up by the page itself (a row measured smaller, a log that shrank), not by the reader, still follows', () => {
    expect(followsAfterScroll(true, 2300, at(2000, 3000, 700), false)).toBe(true);
    expect(followsAfterScroll(true, 2300, at(2000, 3000, 700), true)).toBe(false);
  });

  it('[C5] moving up stops following, moving down short of the end keeps it stopped, reaching the end follows again', () => {
    expect(followsAfterScroll(true, 2300, at(2000, 3000, 700))).toBe(false);
    expect(followsAfterScroll(false, 2000, at(2100, 3000, 700))).toBe(false);
    expect(followsAfterScroll(false, 2100, at(2260, 3000, 700))).toBe(true);
  });
});
