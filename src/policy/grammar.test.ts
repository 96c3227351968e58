import { describe, expect, it } from 'vitest';
import { checkRuleText } from './grammar.ts';
import { compilePolicy } from './compile.ts';

/** Compiles one rule with its examples; the examples are Claude Code's documented ones. */
function check(rule: string, match: string[], notMatch: string[] = []) {
  const res = compilePolicy({ rules: [{ id: 'r', rule, decision: 'allow', tests: { match, notMatch } }] });
  return res.ok ? [] : res.problems.map((p) => `${p.path}: ${p.problem}`);
}

describe('[G1] Claude Code permission-rule grammar', () => {
  it('[G1] tool names alone and Bash(*) match every use', () => {
    expect(check('Bash', ['Bash(npm run build)', 'Bash(rm -rf x)'])).toEqual([]);
    expect(check('Bash(*)', ['Bash(anything at all)'])).toEqual([]);
    expect(check('Read', ['Read(./src/a.ts)'])).toEqual([]);
  });
  it('[G1] exact commands and * anywhere', () => {
    expect(check('Bash(npm run build)', ['Bash(npm run build)'], ['Bash(npm run build --prod)', 'Bash(npm run buildx)'])).toEqual([]);
    expect(check('Bash(git * main)', ['Bash(git checkout main)', 'Bash(git merge main)'], ['Bash(git checkout dev)'])).toEqual([]);
    expect(check('Bash(* --version)', ['Bash(node --version)'], ['Bash(node --help)'])).toEqual([]);
  });
  it('[G1] the word boundary: "ls *" matches ls -la and ls, not lsof; "ls*" matches lsof', () => {
    expect(check('Bash(ls *)', ['Bash(ls -la)', 'Bash(ls)'], ['Bash(lsof)'])).toEqual([]);
    expect(check('Bash(ls*)', ['Bash(lsof)', 'Bash(ls -la)', 'Bash(ls)'])).toEqual([]);
  });
  it('[G1] the legacy :* suffix is " *"', () => {
    expect(check('Bash(npm run test:*)', ['Bash(npm run test)', 'Bash(npm run test -- --watch)'], ['Bash(npm run testing)'])).toEqual([]);
  });
  it('[G1] Read/Edit paths: //absolute, ~/home, /project-root, ./cwd, * one segment, ** any depth', () => {
    expect(check('Read(//etc/hosts)', ['Read(//etc/hosts)'], ['Read(./etc/hosts)'])).toEqual([]);
    expect(check('Edit(/src/**/*.ts)', ['Edit(/src/a.ts)', 'Edit(/src/x/y/b.ts)'], ['Edit(/lib/a.ts)', 'Edit(/src/a.js)'])).toEqual([]);
    expect(check('Read(./src/*)', ['Read(./src/a.ts)'], ['Read(./src/x/a.ts)'])).toEqual([]);
    expect(check('Read(*.env)', ['Read(./.env)', 'Read(./x/y/prod.env)'], ['Read(./env.txt)'])).toEqual([]);
    expect(check('Edit(/docs)', ['Edit(/docs/a/b.md)'], ['Edit(/docsx/a.md)'])).toEqual([]);
    expect(check('Edit(/src/**)', [], ['Edit(/src/../etc/passwd)'])).toEqual([]);
  });
  it('[G1] Edit rules cover the other tools that edit files; Write rules only Write', () => {
    expect(check('Edit(/src/**)', ['Write(/src/a.ts)', 'MultiEdit(/src/a.ts)', 'NotebookEdit(/src/n.ipynb)'], ['Read(/src/a.ts)'])).toEqual([]);
    expect(check('Write(/src/**)', ['Write(/src/a.ts)'], ['Edit(/src/a.ts)'])).toEqual([]);
  });
  it('[G1] WebFetch(domain:...) is the url host', () => {
    expect(check('WebFetch(domain:example.com)', ['WebFetch(https://example.com/a)'], ['WebFetch(https://evil.com/?example.com)', 'WebFetch(https://sub.example.com/)'])).toEqual([]);
    expect(check('WebFetch(domain:*.example.com)', ['WebFetch(https://sub.example.com/)'], ['WebFetch(https://example.com.evil/)'])).toEqual([]);
  });
  it('[G1] mcp__server, mcp__server__tool and mcp__server__*', () => {
    expect(check('mcp__github', ['mcp__github__create_issue'], ['mcp__githubx__a'])).toEqual([]);
    expect(check('mcp__github__*', ['mcp__github__create_issue'], ['mcp__gitlab__create_issue'])).toEqual([]);
    expect(check('mcp__github__create_issue', ['mcp__github__create_issue'], ['mcp__github__create_issue_comment'])).toEqual([]);
  });
  it('[G1] rules outside the grammar say why', () => {
    expect(checkRuleText('Bash(npm test')).toMatch(/must end with "\)"/);
    expect(checkRuleText('Bash()')).toMatch(/empty specifier/);
    expect(checkRuleText('WebFetch(example.com)')).toMatch(/domain:HOST/);
    expect(checkRuleText('mcp__github__x(a)')).toMatch(/no specifier/);
    expect(checkRuleText('Task(foo)')).toMatch(/takes no specifier/);
    expect(checkRuleText(' Bash')).toMatch(/spaces/);
    expect(checkRuleText('Bash(git push *)')).toBeNull();
  });
});
