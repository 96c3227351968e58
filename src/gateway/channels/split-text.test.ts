import { describe, expect, it } from 'vitest';
import { fitText, splitText } from './split-text.ts';

describe('splitText', () => {
  it('[H2][H3] keeps a text within the limit whole', () => {
    expect(splitText('one\ntwo', 10)).toEqual(['one\ntwo']);
  });

  it('[H2][H3] cuts at line breaks, every part within the limit, nothing lost', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i} ${'x'.repeat(i % 7)}`);
    const parts = splitText(lines.join('\n'), 50);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(50);
    expect(parts.join('\n')).toBe(lines.join('\n'));
  });

  it('[H2][H3] cuts a line longer than the limit at a space, and a word longer than it anywhere but inside a surrogate pair', () => {
    const words = splitText('alpha beta gamma delta epsilon', 12);
    expect(words).toEqual(['alpha beta', 'gamma delta', 'epsilon']);
    const emoji = '😀'.repeat(10);
    const parts = splitText(emoji, 5);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(5);
      expect(p).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    }
    expect(parts.join('')).toBe(emoji);
  });

  it('[H2] measures as the platform counts (escaped text for Slack)', () => {
    const escaped = (s: string) => s.replace(/&/g, '&amp;').length;
    for (const p of splitText('&&&&&\n&&&&&', 25, escaped)) expect(escaped(p)).toBeLessThanOrEqual(25);
  });

  it('[H2] a long line of characters the measure counts as several is cut quickly, and no part is empty', () => {
    const escaped = (s: string) => s.replace(/&/g, '&amp;').length;
    const parts = splitText('&'.repeat(32_000), 3000, escaped);
    for (const p of parts) expect(escaped(p)).toBeLessThanOrEqual(3000);
    expect(parts.join('')).toBe('&'.repeat(32_000));
    expect(splitText(`a\n${' '.repeat(50)}\nb`, 10).every((p) => p.trim() !== '')).toBe(true);
  });

  it('[H5] fitText keeps the head of a long edit and ends it with an ellipsis', () => {
    expect(fitText('short', 10)).toBe('short');
    const fitted = fitText('first line\nsecond line\nthird line', 20);
    expect(fitted).toBe('first line…');
    expect(fitted.length).toBeLessThanOrEqual(20);
  });
});
