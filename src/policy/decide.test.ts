import { describe, expect, it } from 'vitest';
import { compilePolicy } from './compile.ts';
import { decide } from './decide.ts';
import type { ApprovalFacts, CompiledPolicy, RuleSpec } from './types.ts';

function policy(rules: Omit<RuleSpec, 'id'>[], unmatched?: 'allow' | 'ask' | 'deny'): CompiledPolicy {
  const res = compilePolicy({ rules: rules.map((r, i) => ({ id: `r${i}`, ...r })), ...(unmatched ? { unmatched } : {}) });
  if (!res.ok) throw new Error(JSON.stringify(res.problems));
  return res.policy;
}
const bash = (command: string, extra: Partial<ApprovalFacts> = {}): ApprovalFacts => ({ tool: 'Bash', input: { command }, cwd: '/p', projectRoot: '/p', ...extra });

describe('[G2] the most restrictive matching rule decides', () => {
  const p = policy([
    { rule: 'Bash(git push *)', decision: 'allow' },
    { rule: 'Bash(git push * --force)', decision: 'deny', reason: 'no force pushes' },
    { rule: 'Bash(git *)', decision: 'ask' },
  ]);
  it('[G2] deny beats allow and ask whatever the order, and every matching rule is named', async () => {
    const v = await decide(p, bash('git push origin main --force'));
    expect(v.decision).toBe('deny');
    expect(v.decidedBy).toBe('policy');
    expect(v.reason).toBe('no force pushes');
    expect(v.matchedRules.map((r) => r.id)).toEqual(['r0', 'r1', 'r2']);
  });
  it('[G2] ask beats allow', async () => {
    expect((await decide(p, bash('git push origin main'))).decision).toBe('ask');
  });
  it('[G2] nothing matches: unmatched (default ask)', async () => {
    const v = await decide(p, bash('make'));
    expect(v).toMatchObject({ decision: 'ask', decidedBy: 'unmatched', matchedRules: [] });
    expect((await decide(policy([], 'deny'), bash('make'))).decision).toBe('deny');
  });
});

describe('[G3] shell commands are judged part by part', () => {
  const p = policy([
    { rule: 'Bash(npm run test *)', decision: 'allow' },
    { rule: 'Bash(ls *)', decision: 'allow' },
    { rule: 'Bash(echo *)', decision: 'allow' },
    { rule: 'Bash(rm *)', decision: 'deny' },
  ]);
  it('[G3] every part allowed allows; one unmatched part asks; one denied part denies', async () => {
    expect((await decide(p, bash('ls -la && npm run test -- --watch | echo done'))).decision).toBe('allow');
    expect((await decide(p, bash('ls; make'))).decision).toBe('ask');
    expect((await decide(p, bash('ls && rm -rf /'))).decision).toBe('deny');
    expect((await decide(p, bash('ls\nrm x'))).decision).toBe('deny');
    expect((await decide(p, bash('ls & rm x'))).decision).toBe('deny');
  });
  it('[G3] substitutions and writing redirections are never allowed by a rule, but what they run can deny', async () => {
    for (const c of ['echo $(ls)', 'echo `ls`', 'ls <(ls)', 'echo hi > out.txt', 'echo hi >> out.txt']) {
      const v = await decide(p, bash(c));
      expect(v.decision, c).toBe('ask');
      expect(v.reason, c).toMatch(/never allowed by a rule/);
    }
    expect((await decide(p, bash('echo $(rm -rf /)'))).decision).toBe('deny');
    expect((await decide(p, bash('ls 2>&1 >/dev/null'))).decision).toBe('allow');
  });
  it('[G3] wrappers are seen through', async () => {
    for (const c of ['timeout 5 ls', 'nice -n 10 ls', 'nohup ls', 'env A=1 ls', 'A=1 B=2 ls', 'timeout -s KILL 5 nice ls -la']) {
      expect((await decide(p, bash(c))).decision, c).toBe('allow');
    }
    expect((await decide(p, bash('timeout 5 rm -rf /'))).decision).toBe('deny');
  });
  it('[G3] inside subshells, braces, if and for the commands are judged; a case statement asks', async () => {
    expect((await decide(p, bash('(ls && echo a) || { echo b; }'))).decision).toBe('allow');
    expect((await decide(p, bash('if ls; then echo a; else rm x; fi'))).decision).toBe('deny');
    expect((await decide(p, bash('for f in a b; do echo $f; done'))).decision).toBe('allow');
    expect((await decide(p, bash('case x in a) ls;; esac'))).decision).toBe('ask');
  });
  it('[G3] a command that does not parse asks', async () => {
    const v = await decide(p, bash('ls "unterminated'));
    expect(v.decision).toBe('ask');
    expect(v.reason).toMatch(/does not parse/);
    expect((await decide(p, bash('ls ) (('))).decision).toBe('ask');
  });
  it('[G3] quoted operators are words, not separators', async () => {
    expect((await decide(p, bash("echo 'a; rm x' \"b && rm y\""))).decision).toBe('allow');
  });
});

describe('[G5] grants are allow rules in layer grant', () => {
  const p = policy([{ rule: 'Bash(git push * --force)', decision: 'deny' }]);
  it('[G5] a grant allows what it covers and names itself', async () => {
    const v = await decide(p, bash('git push origin main'), [{ id: 'g1', rule: 'Bash(git push *)' }]);
    expect(v).toMatchObject({ decision: 'allow', decidedBy: 'grant', grantId: 'g1' });
    expect(v.matchedRules).toEqual([{ id: 'g1', rule: 'Bash(git push *)', decision: 'allow', layer: 'grant' }]);
  });
  it('[G5] a deny rule still wins over a grant', async () => {
    const v = await decide(p, bash('git push origin main --force'), [{ id: 'g1', rule: 'Bash(git push *)' }]);
    expect(v.decision).toBe('deny');
    expect(v.decidedBy).toBe('policy');
  });
  it('[G5] a grant without * matches that exact command only', async () => {
    const g = [{ id: 'g1', rule: 'Bash(npm test)' }];
    expect((await decide(p, bash('npm test'), g)).decision).toBe('allow');
    expect((await decide(p, bash('npm test -- --all'), g)).decision).toBe('ask');
  });
});

describe('[G1] agents, args, files and MCP tools', () => {
  it('[G1] agents globs apply a rule to matching agent ids only', async () => {
    const p = policy([{ rule: 'Bash(ls *)', decision: 'allow', agents: ['claude-*'] }]);
    expect((await decide(p, bash('ls', { agent: 'claude-code' }))).decision).toBe('allow');
    expect((await decide(p, bash('ls', { agent: 'codex' }))).decision).toBe('ask');
    expect((await decide(p, bash('ls'))).decision).toBe('ask');
  });
  it('[G1] args conditions on an MCP tool input', async () => {
    const p = policy([
      { rule: 'mcp__db__query', decision: 'allow', args: { limit: { $lte: 100 }, table: { $in: ['users', 'orders'] } } },
      { rule: 'mcp__db__*', decision: 'deny', args: { sql: { $regex: '^\\s*drop\\b' } } },
    ]);
    const q = (input: Record<string, unknown>): ApprovalFacts => ({ tool: 'mcp__db__query', input });
    expect((await decide(p, q({ limit: 10, table: 'users' }))).decision).toBe('allow');
    expect((await decide(p, q({ limit: 1000, table: 'users' }))).decision).toBe('ask');
    expect((await decide(p, q({ limit: '10', table: 'users' }))).decision).toBe('ask');
    expect((await decide(p, q({ limit: 10, table: 'users', sql: 'drop table x' }))).decision).toBe('deny');
  });
  it('[G1] Edit rules judge the file against the project root', async () => {
    const p = policy([{ rule: 'Edit(/src/**)', decision: 'allow' }, { rule: 'Read(~/.ssh/**)', decision: 'deny' }]);
    const edit = (file_path: string, tool = 'Edit'): ApprovalFacts => ({ tool, input: { file_path }, cwd: '/p/sub', projectRoot: '/p' });
    expect((await decide(p, edit('/p/src/a.ts'))).decision).toBe('allow');
    expect((await decide(p, edit('../src/b.ts', 'Write'))).decision).toBe('allow');
    expect((await decide(p, edit('/p/src/../secrets.txt'))).decision).toBe('ask');
  });
  it('[G10] a rule that throws while evaluated counts as ask, never allow', async () => {
    const p = policy([{ rule: 'Bash(ls *)', decision: 'allow' }]);
    const broken: CompiledPolicy = { ...p, rules: [...p.rules, { id: 'bad', rule: 'Bash(', decision: 'allow', layer: 'config' }] };
    const v = await decide(broken, bash('ls'));
    expect(v.decision).toBe('ask');
    expect(v.matchedRules.map((r) => r.id)).toContain('bad');
  });
  it('[G10] a policy that throws while deciding asks', async () => {
    const v = await decide({ rules: null, unmatched: 'allow', sources: [] } as unknown as CompiledPolicy, bash('ls'));
    expect(v).toMatchObject({ decision: 'ask', decidedBy: 'unmatched', reason: expect.stringMatching(/failed while deciding/) });
  });
  it('[G10] a grant outside the grammar allows nothing', async () => {
    expect((await decide(policy([]), bash('ls'), [{ id: 'g', rule: 'Bash(ls' }])).decision).toBe('ask');
  });
});
