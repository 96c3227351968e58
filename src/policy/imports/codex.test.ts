import { describe, expect, it } from 'vitest';
import { compilePolicy } from '../compile.ts';
import { decide } from '../decide.ts';
import { importCodex } from './codex.ts';

// The example policy documented with codex-execpolicy (example.codexpolicy), abridged.
const DOCUMENTED = `
# Example policy to illustrate syntax
prefix_rule(
    pattern = ["git", "reset", "--hard"],
    decision = "forbidden",
    justification = "destructive operation",
    match = [
        ["git", "reset", "--hard"],
    ],
    not_match = [
        ["git", "reset", "--keep"],
        "git reset --merge",
    ],
)

prefix_rule(
    pattern = ["ls"],
    match = [
        ["ls"],
        ["ls", "-l"],
        ["ls", "-a", "."],
    ],
)

prefix_rule(
    pattern = ["cp"],
    decision = "prompt",
    match = [
        ["cp", "foo", "bar"],
        "cp -r src dest",
    ],
)

prefix_rule(
    pattern = ["head"],
    match = [["head", "README.md"], ["head", "-n", "5", "CHANGELOG.md"]],
    not_match = [["hea", "-n", "1,5p", "CHANGELOG.md"]],
)
`;

describe('[G8] askdock policy import codex', () => {
  it('[G8] the documented example: prompt is ask, forbidden is deny, examples become tests, a missing decision warns', async () => {
    const out = importCodex([{ path: 'default.rules', text: DOCUMENTED }]);
    expect(out.refused).toEqual([]);
    expect(out.policy.rules).toEqual([
      { id: 'codex-git-reset-hard', rule: 'Bash(git reset --hard *)', decision: 'deny', reason: 'destructive operation', tests: { match: ['Bash(git reset --hard)'], notMatch: ['Bash(git reset --keep)', 'Bash(git reset --merge)'] } },
      { id: 'codex-ls', rule: 'Bash(ls *)', decision: 'allow', tests: { match: ['Bash(ls)', 'Bash(ls -l)', 'Bash(ls -a .)'] } },
      { id: 'codex-cp', rule: 'Bash(cp *)', decision: 'ask', tests: { match: ['Bash(cp foo bar)', 'Bash(cp -r src dest)'] } },
      { id: 'codex-head', rule: 'Bash(head *)', decision: 'allow', tests: { match: ['Bash(head README.md)', 'Bash(head -n 5 CHANGELOG.md)'], notMatch: ['Bash(hea -n 1,5p CHANGELOG.md)'] } },
    ]);
    expect(out.warnings).toHaveLength(2);
    expect(out.warnings[0]).toMatch(/default\.rules: line \d+: prefix_rule without a decision is imported as allow/);
    const compiled = compilePolicy(out.policy);
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect((await decide(compiled.policy, { tool: 'Bash', input: { command: 'git reset --hard HEAD~1' } })).decision).toBe('deny');
    expect((await decide(compiled.policy, { tool: 'Bash', input: { command: 'ls -la && head x' } })).decision).toBe('allow');
  });

  it('[G8] pattern items that are lists are alternatives; each example goes to the alternative it matches', () => {
    const out = importCodex([{ path: 'a.rules', text: 'prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt", match=[["git","push","origin","main"]], not_match=[["git","status"]])' }]);
    expect(out.refused).toEqual([]);
    expect(out.policy.rules.map((r) => [r.rule, r.tests])).toEqual([
      ['Bash(git push *)', { match: ['Bash(git push origin main)'], notMatch: ['Bash(git status)'] }],
      ['Bash(git fetch *)', { notMatch: ['Bash(git status)'] }],
    ]);
  });

  it('[G8] what cannot be expressed is refused with why, never dropped', () => {
    const text = [
      'host_executable(name="git", paths=["/usr/bin/git"])',
      'prefix_rule(pattern=["echo", "a b"])',
      'prefix_rule(pattern=["rm"], decision="maybe")',
      'prefix_rule(pattern=["ls"], match=[["cat"]])',
      'prefix_rule(pattern=["ls"], decision="allow", network=True)',
      'prefix_rule(pattern=["pwd"], decision="allow")',
    ].join('\n');
    const out = importCodex([{ path: 'b.rules', text }]);
    expect(out.policy.rules.map((r) => r.rule)).toEqual(['Bash(pwd *)']);
    expect(out.refused.map((r) => [r.file, r.rule])).toEqual([
      ['b.rules', 'host_executable(…) at line 1'],
      ['b.rules', 'prefix_rule(…) at line 2'],
      ['b.rules', 'prefix_rule(…) at line 3'],
      ['b.rules', 'prefix_rule(…) at line 4'],
      ['b.rules', 'prefix_rule(…) at line 5'],
    ]);
    expect(out.refused[1].why).toMatch(/"a b" has spaces/);
    expect(out.refused[2].why).toMatch(/unknown decision "maybe"/);
    expect(out.refused[3].why).toMatch(/Bash\(cat\) matches no rule/);
    expect(out.refused[4].why).toMatch(/unknown argument network/);
  });

  it('[G8] a file that is not the understood Starlark subset is refused as a whole, naming the line', () => {
    const out = importCodex([{ path: 'c.rules', text: 'x = ["git"]\nprefix_rule(pattern=x)' }]);
    expect(out.policy.rules).toEqual([]);
    expect(out.refused).toEqual([{ file: 'c.rules', rule: '(the whole file)', why: expect.stringMatching(/line 1/) }]);
  });
});
