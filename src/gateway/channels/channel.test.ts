import { describe, expect, it } from 'vitest';
import { pressResolutionId } from './channel.ts';

describe('a press\'s resolutionId', () => {
  it('[Q5][H4] identity ids alike in their first 128 characters give different ids, each within 128; a repeat gives the same', () => {
    const long = 'x'.repeat(140);
    const a = pressResolutionId('telegram', `${long}-alice`, '101', '0');
    const b = pressResolutionId('telegram', `${long}-bob`, '101', '0');
    expect(a).not.toBe(b);
    expect(a.length).toBeLessThanOrEqual(128);
    expect(b.length).toBeLessThanOrEqual(128);
    expect(pressResolutionId('telegram', `${long}-alice`, '101', '0')).toBe(a);
    expect(pressResolutionId('telegram', `${long}-alice`, '101', '1')).not.toBe(a);
    expect(pressResolutionId('telegram', `${long}-alice`, '102', '0')).not.toBe(a);
    // The parts cannot run into each other: "a-b" + "c" is not "a" + "b-c".
    expect(pressResolutionId('slack', 'a-b', 'c', '0')).not.toBe(pressResolutionId('slack', 'a', 'b-c', '0'));
  });
});
