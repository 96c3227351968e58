import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cutHeader, nulPaths } from './request-rules.ts';
import { HEADER_MAX } from './rules.ts';

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

describe('cutHeader', () => {
  it('[Q2][T1] cuts a long header at the last space that leaves room for an ellipsis, never mid-word, within 12 characters', () => {
    expect(cutHeader('String with format')).toBe('String with…');
    expect(cutHeader('Number in range')).toBe('Number in…');
    expect(cutHeader('Ship the release now')).toBe('Ship the…');
    expect(cutHeader('A very long header indeed')).toBe('A very long…');
    // The twelfth character ends a word, but the ellipsis needs its place: the word goes.
    expect(cutHeader('Deploy where now')).toBe('Deploy…');
    for (const text of ['String with format', 'Deploy where now', 'memory__create_entities', '🚀 Deployment target']) {
      expect(Array.from(cutHeader(text)).length).toBeLessThanOrEqual(HEADER_MAX);
    }
  });

  it('[Q2][T1] a header that fits is kept as it is, with no ellipsis, and cutting twice cuts once', () => {
    expect(cutHeader('Environment')).toBe('Environment');
    expect(cutHeader('exactly 12 c')).toBe('exactly 12 c');
    for (const text of ['String with format', 'memory__create_entities', '🚀 Deployment target', 'a b c d e f g h i j k l m']) {
      expect(cutHeader(cutHeader(text))).toBe(cutHeader(text));
    }
  });

  it('[Q2][T1] a word longer than half the limit, or no space at all, is cut by code point, never half an emoji', () => {
    expect(cutHeader('memory__create_entities')).toBe('memory__cre…');
    // Cutting at the only space would leave just the emoji.
    expect(cutHeader('🚀 Supercalifragilistic')).toBe('🚀 Supercali…');
    expect(cutHeader('🚀 Deployment target')).toBe('🚀 Deploymen…');
    expect(cutHeader('🚀'.repeat(14))).toBe(`${'🚀'.repeat(11)}…`);
  });
});
