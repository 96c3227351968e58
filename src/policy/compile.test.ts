import { describe, expect, it } from 'vitest';
import { compilePolicy, emptyPolicy } from './compile.ts';

function problems(approvals: unknown, opts = {}) {
  const res = compilePolicy(approvals, opts);
  return res.ok ? [] : res.problems;
}

describe('[G10] a policy that does not load names every fault with its place', () => {
  it('[G10] unknown decision, rule outside the grammar, bad agents and duplicate ids', () => {
    expect(problems({
      rules: [
        { id: 'a', rule: 'Bash(ls *)', decision: 'allow' },
        { id: 'b', rule: 'Bash(ls', decision: 'permit' },
        { id: 'a', rule: 'Read', decision: 'deny', agents: ['claude code'] },
      ],
      unmatched: 'maybe',
    })).toEqual([
      { path: 'approvals.unmatched', problem: 'unknown decision "maybe" (use allow, ask, deny)' },
      { path: 'approvals.rules[1].rule', problem: expect.stringMatching(/^outside the rule grammar: .*must end with "\)"/) },
      { path: 'approvals.rules[1].decision', problem: 'unknown decision "permit" (use allow, ask, deny)' },
      { path: 'approvals.rules[2].agents[0]', problem: expect.stringMatching(/is not an agent id glob/) },
    ]);
    expect(problems({ rules: [{ id: 'a', rule: 'Bash', decision: 'allow' }, { id: 'a', rule: 'Read', decision: 'deny' }] })).toEqual([
      { path: 'approvals.rules[1]', problem: 'duplicate id "a" (already used at approvals.rules[0])' },
    ]);
  });
  it('[G10] a failing test stops the load and says which example', () => {
    expect(problems({ rules: [{ id: 'push', rule: 'Bash(git push *)', decision: 'ask', tests: { match: ['Bash(git push origin main)', 'Bash(git pull)'], notMatch: ['Bash(git push)'] } }] })).toEqual([
      { path: 'approvals.rules[0].tests.match[1]', problem: 'failing test: "Bash(git push *)" does not match "Bash(git pull)"' },
      { path: 'approvals.rules[0].tests.notMatch[0]', problem: 'failing test: "Bash(git push *)" matches "Bash(git push)"' },
    ]);
  });
  it('[G1] an unsafe $regex is refused at load, naming its path; a bad operator too', () => {
    expect(problems({ rules: [{ id: 'q', rule: 'mcp__db__query', decision: 'allow', args: { sql: { $regex: '(a+)+$' }, n: { $lt: 'ten', $near: 1 } } }] })).toEqual([
      { path: 'approvals.rules[0].args.sql.$regex', problem: expect.stringMatching(/could backtrack without bound/) },
      { path: 'approvals.rules[0].args.n.$lt', problem: '$lt must be a finite number' },
      { path: 'approvals.rules[0].args.n.$near', problem: expect.stringMatching(/unknown operator "\$near"/) },
    ]);
    expect(problems({ rules: [{ id: 'b', rule: 'Bash(ls *)', decision: 'allow', args: { command: { $eq: 'ls' } } }] })[0].path).toBe('approvals.rules[0].args');
  });
  it('[G10] approvals.file: bad JSON names the file; its rules are layer file with the file in their place', () => {
    const files: Record<string, string> = { '/etc/askdock/p.json': '{"rules": [', '/etc/askdock/q.json': JSON.stringify({ rules: [{ id: 'x', rule: 'Bash(ls *)', decision: 'nope' }] }) };
    const readFile = (p: string) => {
      if (!(p in files)) throw new Error(`ENOENT: ${p}`);
      return files[p];
    };
    expect(problems({ file: 'p.json' }, { readFile, baseDir: '/etc/askdock' })).toEqual([{ path: '/etc/askdock/p.json', problem: expect.stringMatching(/^bad JSON: /) }]);
    expect(problems({ file: 'q.json' }, { readFile, baseDir: '/etc/askdock' })).toEqual([{ path: '/etc/askdock/q.json: rules[0].decision', problem: 'unknown decision "nope" (use allow, ask, deny)' }]);
    expect(problems({ file: 'missing.json' }, { readFile, baseDir: '/etc/askdock' })[0]).toMatchObject({ path: '/etc/askdock/missing.json', problem: expect.stringMatching(/cannot read/) });
  });
  it('[G1] a good policy loads config and file rules with their layers; unmatched defaults to ask', () => {
    const readFile = () => JSON.stringify({ rules: [{ id: 'f', rule: 'Read(./src/**)', decision: 'allow' }], unmatched: 'deny' });
    const res = compilePolicy({ rules: [{ id: 'c', rule: 'Bash(npm run test *)', decision: 'allow', reason: 'tests are safe' }], file: '/p.json' }, { readFile });
    expect(res).toEqual({
      ok: true,
      policy: {
        rules: [
          { id: 'c', rule: 'Bash(npm run test *)', decision: 'allow', reason: 'tests are safe', layer: 'config' },
          { id: 'f', rule: 'Read(./src/**)', decision: 'allow', layer: 'file' },
        ],
        unmatched: 'deny',
        sources: ['config', '/p.json'],
      },
    });
    expect(compilePolicy(undefined)).toEqual({ ok: true, policy: emptyPolicy() });
    expect(emptyPolicy().unmatched).toBe('ask');
  });
  it('[G10] an unknown key is a fault (a misspelt "unmatched" must not silently fall back)', () => {
    expect(problems({ rules: [], unmached: 'deny' }, { where: 'policy.approvals' })).toEqual([{ path: 'policy.approvals.unmached', problem: 'unknown key "unmached" (expected rules, unmatched, file)' }]);
  });
});
