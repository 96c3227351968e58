import { describe, expect, it } from 'vitest';
import { cutDetail } from './detail-lines.ts';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

describe('cutDetail', () => {
  it('[X2] keeps a short detail whole, its indentation too, and drops only trailing newlines', () => {
    expect(cutDetail('  a\n\tb\n\n', 10)).toBe('  a\n\tb');
  });

  it('[X2] cuts past maxLines with "… N more lines"', () => {
    expect(cutDetail(lines(200), 3)).toBe('line 1\nline 2\nline 3\n… 197 more lines');
    expect(cutDetail(lines(4), 3)).toBe('line 1\nline 2\nline 3\n… 1 more line');
  });

  it('[X2] gives up whole lines until it fits, and cuts a single long line rather than come out empty', () => {
    const cut = cutDetail(lines(200), 100, (t) => t.length <= 60);
    expect(cut.length).toBeLessThanOrEqual(60);
    expect(cut).toMatch(/^line 1\nline 2\n[\s\S]*… \d+ more lines$/);
    const long = cutDetail('x'.repeat(5000), 10, (t) => t.length <= 100);
    expect(long.length).toBeLessThanOrEqual(100);
    expect(long).toMatch(/^x+…$/);
  });
});
