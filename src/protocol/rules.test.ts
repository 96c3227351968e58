import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nulPaths } from './rules.ts';

describe('the protocol modules the Control UI loads first', () => {
  it('rules.ts, askdock-error.ts and version.ts import no schema library, only types', () => {
    for (const file of ['rules.ts', 'askdock-error.ts', 'version.ts']) {
      const source = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8');
      const imports = [...source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)'/gm)];
      for (const [line, typeOnly] of imports) expect(typeOnly, `${file}: ${line}`).toBeDefined();
    }
  });
});

describe('nulPaths', () => {
  it('[P3] names every string and key holding U+0000, and skips frames whose text has no \\u0000 escape', () => {
    const value = { a: 'x\u0000', list: ['ok', { deep: '\u0000' }], ['k\u0000']: 1 };
    expect(nulPaths(value)).toEqual([['a'], ['list', 1, 'deep'], ['k\u0000']]);
    expect(nulPaths(value, JSON.stringify(value))).toHaveLength(3);
    expect(nulPaths({ text: 'C:\\u0000' }, JSON.stringify({ text: 'C:\\u0000' }))).toEqual([]);
    expect(nulPaths({ text: 'plain' })).toEqual([]);
  });
});
