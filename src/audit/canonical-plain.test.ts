import canonicalize from 'canonicalize';
import { describe, expect, it, vi } from 'vitest';
import { AuditFormatError, canonicalJson, checkedCanonicalJson } from './canonical.ts';

// Every call into the package counted: plain values are written in one pass, without it.
vi.mock('canonicalize', async (original) => {
  const real = (await original<{ default: typeof canonicalize }>()).default;
  return { default: vi.fn(real) };
});

/** A seeded generator (mulberry32), so a failure names a value that can be made again. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NUMBERS = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, 333333333.33333329, 2 ** 53 + 2, -123.456e-10, 4.5];
const STRINGS = ['', 'a', 'é', '€', '😀', '\u0000', '\u001f', '"\\/', '\n\r\t', '\u2028\u2029', '\ufb33', '\u0080', 'key', '1', '10', '__proto__'];

function value(next: () => number, depth: number): unknown {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const kind = Math.floor(next() * (depth > 3 ? 5 : 7));
  if (kind === 0) return null;
  if (kind === 1) return next() < 0.5;
  if (kind === 2) return next() < 0.5 ? pick(NUMBERS) : (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20);
  if (kind === 3 || kind === 4) return Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(STRINGS)).join('');
  if (kind === 5) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  // Own properties as JSON.parse makes them ("__proto__" included), not through the setter.
  return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [pick(STRINGS) + pick(STRINGS), next() < 0.1 ? undefined : value(next, depth + 1)]));
}

describe('canonical JSON in one pass (L1, L2)', () => {
  it('[L2] gives the same text as the checked reference for 5,000 generated values, without calling the package', () => {
    const next = random(57);
    const values = Array.from({ length: 5_000 }, () => value(next, 0));
    const want = values.map(checkedCanonicalJson);
    vi.mocked(canonicalize).mockClear();
    expect(values.map(canonicalJson)).toEqual(want);
    expect(canonicalize).not.toHaveBeenCalled();
  });

  it('[L2] a value with no JSON form or a lone surrogate is refused as before, naming where', () => {
    expect(() => canonicalJson({ a: [1, () => 1] })).toThrow('$.a[1] is a function, which has no JSON form');
    expect(() => canonicalJson({ n: Number.POSITIVE_INFINITY })).toThrow('$.n is Infinity, which JSON cannot hold');
    expect(() => canonicalJson({ s: 'a\ud800' })).toThrow(AuditFormatError);
    expect(() => canonicalJson({ ['\udc00']: 1 })).toThrow(/Lone surrogate/);
  });
});
