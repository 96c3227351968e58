import { describe, expect, it } from 'vitest';
import { parseStarlark } from './starlark.ts';

describe('[G8] the Starlark subset of Codex .rules files', () => {
  it('[G8] calls with keyword arguments: strings (both quotes, escapes, raw, triple, adjacent), lists, True/False/None, comments, trailing commas', () => {
    const calls = parseStarlark(`# policy
prefix_rule(pattern = ["a", ['b', "c\\"d"]], justification = "x" 'y', flag = True, other = None,)
prefix_rule(pattern=[r"\\d"], justification="""two
lines""")`);
    expect(calls.map((c) => [c.name, c.line, Object.fromEntries(c.kwargs)])).toEqual([
      ['prefix_rule', 2, { pattern: ['a', ['b', 'c"d']], justification: 'xy', flag: true, other: null }],
      ['prefix_rule', 3, { pattern: ['\\d'], justification: 'two\nlines' }],
    ]);
  });
  it('[G8] what is outside the subset is an error naming the line', () => {
    expect(() => parseStarlark('prefix_rule(pattern=["a"])\nx = 1')).toThrow(/line 2/);
    expect(() => parseStarlark('prefix_rule(pattern=["a]')).toThrow(/line 1: unterminated string/);
    expect(() => parseStarlark('prefix_rule(pattern=["a"], pattern=["b"])')).toThrow(/pattern given twice/);
    expect(() => parseStarlark('prefix_rule(pattern=[1])')).toThrow(/unexpected "1"/);
  });
});
