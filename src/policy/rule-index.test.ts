import { describe, expect, it } from 'vitest';
import { compilePolicy } from './compile.ts';
import { decide } from './decide.ts';
import { bashKey } from './rule-index.ts';
import type { CompiledPolicy, CompiledRule } from './types.ts';

/** The policy with each rule wrapped so that the rules a decision reads are counted. */
function counted(rules: unknown[]): { policy: CompiledPolicy; touched: Set<string> } {
  const res = compilePolicy({ rules });
  if (!res.ok) throw new Error(JSON.stringify(res.problems));
  const touched = new Set<string>();
  const wrapped = res.policy.rules.map((r) => new Proxy(r, { get: (t, k, rec) => (touched.add(t.id), Reflect.get(t, k, rec)) }) as CompiledRule);
  return { policy: { ...res.policy, rules: wrapped }, touched };
}

const thousand = () => [
  ...Array.from({ length: 500 }, (_, i) => ({ id: `tool-${i}`, rule: `Bash(tool-${i} run *)`, decision: 'allow' })),
  ...Array.from({ length: 499 }, (_, i) => ({ id: `mcp-${i}`, rule: `mcp__server${i}__create`, decision: 'ask', args: { size: { $lt: i } } })),
  { id: 'no-force', rule: 'Bash(git push * --force)', decision: 'deny', reason: 'no force pushes' },
];

describe('[G2] a decision tries only the rules that could apply', () => {
  it('[G2] with 1,000 rules, a Bash command reads only the rules filed under its words', async () => {
    const { policy, touched } = counted(thousand());
    await decide(policy, { tool: 'Bash', input: { command: 'ls' } }); // the index is built once per policy
    touched.clear();
    const v = await decide(policy, { tool: 'Bash', input: { command: 'tool-7 run a && git push origin main --force' } });
    expect(v).toMatchObject({ decision: 'deny', reason: 'no force pushes' });
    expect(v.matchedRules.map((r) => r.id)).toEqual(['tool-7', 'no-force']);
    expect(touched.size).toBeLessThanOrEqual(3);
  });
  it('[G2] with 1,000 rules, an MCP call reads only the rules of its tool', async () => {
    const { policy, touched } = counted(thousand());
    await decide(policy, { tool: 'mcp__server3__create', input: { size: 1 } });
    touched.clear();
    expect((await decide(policy, { tool: 'mcp__server3__create', input: { size: 1 } })).decision).toBe('ask');
    expect((await decide(policy, { tool: 'mcp__server3__create', input: { size: 9 } })).decision).toBe('ask');
    expect(touched.size).toBeLessThanOrEqual(1);
  });
  it('[G3] a rule is filed under the first word every command it matches starts with, or tried for all', () => {
    expect(bashKey('npm run test *')).toBe('npm');
    expect(bashKey('npm run test:*')).toBe('npm');
    expect(bashKey('ls *')).toBe('ls');
    expect(bashKey('make')).toBe('make');
    expect(bashKey('ls*')).toBeNull();
    expect(bashKey('* --help')).toBeNull();
  });
});
