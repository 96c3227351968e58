import { describe, expect, it } from 'vitest';
import { array, count, literal, nullable, number, object, oneOf, optional, read, record, string, union } from './shape.ts';

describe('shape checks for what the UI reads back from storage', () => {
  const Row = object({ id: string(1), n: count, state: oneOf(['a', 'b'] as const), note: optional(string()), at: nullable(number) });

  it('keeps only the named keys and leaves absent optional ones out', () => {
    expect(read(Row, { id: 'x', n: 2, state: 'a', at: null, extra: 'dropped' })).toEqual({ id: 'x', n: 2, state: 'a', at: null });
    expect(Object.keys(read(Row, { id: 'x', n: 0, state: 'b', at: 1 })!)).toEqual(['id', 'n', 'state', 'at']);
  });

  it('refuses what does not fit: wrong types, lengths, counts, values, arrays for objects', () => {
    for (const bad of [null, [], 'x', { id: '', n: 1, state: 'a', at: 1 }, { id: 'x', n: -1, state: 'a', at: 1 }, { id: 'x', n: 1.5, state: 'a', at: 1 },
      { id: 'x', n: 1, state: 'c', at: 1 }, { id: 'x', n: 1, state: 'a', at: Number.NaN }, { id: 'x', n: 1, state: 'a', at: 1, note: 3 }])
      expect(read(Row, bad)).toBeNull();
    expect(read(string(8, 10), '1234567')).toBeNull();
    expect(read(string(8, 10), '12345678')).toBe('12345678');
  });

  it('reads records and arrays whole, or not at all', () => {
    const Answers = record(array(string()));
    expect(read(Answers, { a: ['x'], b: [] })).toEqual({ a: ['x'], b: [] });
    expect(read(Answers, { a: ['x', 1] })).toBeNull();
    expect(read(Answers, [['x']])).toBeNull();
  });

  it('a union takes the first member that fits', () => {
    const Msg = union(object({ kind: literal('one'), n: number }), object({ kind: literal('two'), s: string() }));
    expect(read(Msg, { kind: 'two', s: 'x', n: 1 })).toEqual({ kind: 'two', s: 'x' });
    expect(read(Msg, { kind: 'one', s: 'x' })).toBeNull();
  });
});
