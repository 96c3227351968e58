import { describe, expect, it } from 'vitest';
import { approvalDigest, describeRequest, offeredRule } from './offer.ts';
import type { ApprovalFacts } from './types.ts';

const bash = (command: string): ApprovalFacts => ({ tool: 'Bash', input: { command }, cwd: '/p', projectRoot: '/p' });

describe('[G7] the rule "Always allow" offers', () => {
  it('[G7] the agent\'s first suggestion within the grammar wins', () => {
    expect(offeredRule(bash('npm test'), ['Bash(npm test', 'Bash(npm test *)', 'Bash'])).toBe('Bash(npm test *)');
  });
  it('[G7] askdock\'s own: the command\'s leading words and " *"', () => {
    expect(offeredRule(bash('npm run test -- --watch'))).toBe('Bash(npm run test *)');
    expect(offeredRule(bash('git push origin main'))).toBe('Bash(git push *)');
    expect(offeredRule(bash('ls -la src'))).toBe('Bash(ls *)');
    expect(offeredRule(bash('npm test'))).toBe('Bash(npm test *)');
    expect(offeredRule(bash('git -C repo status'))).toBeNull();
    expect(offeredRule(bash('timeout 60 cargo test --all'))).toBe('Bash(cargo test *)');
  });
  it('[G7] no rule where none can be formed safely: compound commands, substitutions, redirections', () => {
    for (const c of ['ls && rm x', 'echo $(id)', 'echo hi > f', 'ls\nls', '$CMD run', '"weird name" x', 'case a in b) ;; esac']) {
      expect(offeredRule(bash(c)), c).toBeNull();
    }
  });
  it('[G7] files: the folder /** relative to the project root; MCP tools: the tool name', () => {
    expect(offeredRule({ tool: 'Edit', input: { file_path: '/p/src/ui/a.ts' }, cwd: '/p', projectRoot: '/p' })).toBe('Edit(/src/ui/**)');
    expect(offeredRule({ tool: 'Write', input: { file_path: 'README.md' }, cwd: '/p', projectRoot: '/p' })).toBe('Write(/**)');
    expect(offeredRule({ tool: 'Edit', input: { file_path: '/etc/passwd' }, cwd: '/p', projectRoot: '/p' })).toBeNull();
    expect(offeredRule({ tool: 'mcp__github__create_issue', input: { title: 'x' } })).toBe('mcp__github__create_issue');
    expect(offeredRule({ tool: 'WebFetch', input: { url: 'https://Docs.Example.com/a' } })).toBe('WebFetch(domain:docs.example.com)');
  });
});

describe('[G6] describeRequest names a request like a rule', () => {
  it('[G6] Bash, Edit relative to the project, MCP tool names', () => {
    expect(describeRequest(bash('npm run test'))).toBe('Bash(npm run test)');
    expect(describeRequest({ tool: 'Edit', input: { file_path: '/p/src/a.ts' }, cwd: '/p', projectRoot: '/p' })).toBe('Edit(src/a.ts)');
    expect(describeRequest({ tool: 'mcp__github__create_issue', input: {} })).toBe('mcp__github__create_issue');
  });
});

describe('[G7] approvalDigest binds an approval to its exact input', () => {
  it('[G7] key order does not matter; input and folder do', () => {
    const a = approvalDigest({ tool: 'mcp__x__y', input: { a: 1, b: [1, 2] }, cwd: '/p' });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(approvalDigest({ tool: 'mcp__x__y', input: { b: [1, 2], a: 1 }, cwd: '/p' })).toBe(a);
    expect(approvalDigest({ tool: 'mcp__x__y', input: { a: 2, b: [1, 2] }, cwd: '/p' })).not.toBe(a);
    expect(approvalDigest({ tool: 'mcp__x__y', input: { a: 1, b: [1, 2] }, cwd: '/q' })).not.toBe(a);
    expect(approvalDigest({ tool: 'mcp__x__y', input: { a: 1, b: [1, 2] }, cwd: '/p', agent: 'other' })).toBe(a);
  });
});
