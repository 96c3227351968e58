import { describe, expect, it } from 'vitest';
import { argsMatch, compileArgs } from './args.ts';

function matcher(args: unknown) {
  const res = compileArgs(args, 'approvals.rules[0].args');
  if (!res.ok) throw new Error(JSON.stringify(res.problems));
  return (input: Record<string, unknown>) => argsMatch(res.args, input);
}

describe('[G1] the args matcher', () => {
  it('[G1] $eq and $in compare values, also objects and arrays', () => {
    const m = matcher({ repo: { $eq: 'askdock' }, labels: { $in: [['bug'], ['docs']] } });
    expect(m({ repo: 'askdock', labels: ['bug'] })).toBe(true);
    expect(m({ repo: 'askdock', labels: ['bug', 'x'] })).toBe(false);
    expect(m({ repo: 'other', labels: ['docs'] })).toBe(false);
  });
  it('[G1] $lt $lte $gt $gte hold only for numbers', () => {
    const m = matcher({ n: { $gt: 0, $lte: 10 } });
    expect([m({ n: 10 }), m({ n: 0 }), m({ n: 11 }), m({ n: '5' }), m({})]).toEqual([true, false, false, false, false]);
  });
  it('[G1] $regex on strings; dotted paths reach nested keys, an exact key wins', () => {
    const m = matcher({ 'options.branch': { $regex: '^feature/' } });
    expect(m({ options: { branch: 'feature/x' } })).toBe(true);
    expect(m({ options: { branch: 'main' } })).toBe(false);
    expect(m({ 'options.branch': 'feature/y' })).toBe(true);
    expect(m({ options: { branch: 7 } })).toBe(false);
  });
  it('[G1] faults name their path: unsafe or broken $regex, empty conditions, bad keys', () => {
    const res = compileArgs({ a: { $regex: '(x*)*y' }, b: { $regex: '(' }, c: {}, 'd..e': { $eq: 1 }, f: { $in: 3 } }, 'args');
    expect(res.ok ? [] : res.problems.map((p) => p.path)).toEqual(['args.a.$regex', 'args.b.$regex', 'args.c', 'args.d..e', 'args.f.$in']);
    expect(compileArgs([], 'args').ok).toBe(false);
  });
});
