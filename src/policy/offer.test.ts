import { describe, expect, it } from 'vitest';
import { approvalDigest, describeRequest, offeredRule } from './offer.ts';
import type { ApprovalFacts } from './types.ts';

const bash = (command: string): ApprovalFacts => ({ tool: 'Bash', input: { command }, cwd: '/p', projectRoot: '/p' });

describe('[G7] the rule "Always allow" offers', async () => {
  it('[G7] the agent\'s first suggestion within the grammar wins', async () => {
    expect(await offeredRule(bash('npm test'), ['Bash(npm test', 'Bash(npm test *)', 'Bash'])).toBe('Bash(npm test *)');
  });
  it('[G7] askdock\'s own: the command\'s leading words and " *"', async () => {
    expect(await offeredRule(bash('npm run test -- --watch'))).toBe('Bash(npm run test *)');
    expect(await offeredRule(bash('git push origin main'))).toBe('Bash(git push *)');
    expect(await offeredRule(bash('ls -la src'))).toBe('Bash(ls *)');
    expect(await offeredRule(bash('npm test'))).toBe('Bash(npm test *)');
    expect(await offeredRule(bash('git -C repo status'))).toBeNull();
    expect(await offeredRule(bash('timeout 60 cargo test --all'))).toBe('Bash(cargo test *)');
  });
  it('[G7] no rule where none can be formed safely: compound commands, substitutions, redirections', async () => {
    expect(await offeredRule(bash(`echo ${'$('.repeat(20_000)}x${')'.repeat(20_000)}`))).toBeNull();
    for (const c of ['ls && rm x', 'echo $(id)', 'echo hi > f', 'ls\nls', '$CMD run', '"weird name" x', 'case a in b) ;; esac']) {
      expect(await offeredRule(bash(c)), c).toBeNull();
    }
  });
  it('[G7][G3] an agent\'s suggestion that would not let its own request through is not offered: the next one, or askdock\'s own', async () => {
    // Claude Code suggests a rule for the part it deems not read-only; a grant of it asks again for the same command.
    expect(await offeredRule(bash('echo again | tee -a log.txt'), ['Bash(tee -a log.txt)'])).toBeNull();
    expect(await offeredRule(bash('npm test && git push'), ['Bash(npm test:*)', 'Bash(git push:*)'])).toBeNull();
    // A writing redirection is never allowed by a rule (G3), whatever the agent suggests.
    expect(await offeredRule(bash('echo hi > out.txt'), ['Bash(echo:*)'])).toBeNull();
    expect(await offeredRule(bash('npm test -- --run'), ['Bash(npm run lint:*)', 'Bash(npm test:*)'])).toBe('Bash(npm test:*)');
    expect(await offeredRule(bash('cargo test --all'), ['Bash(cargo build:*)'])).toBe('Bash(cargo test *)');
  });
  it('[G7] files: the folder /** relative to the project root; MCP tools: the tool name', async () => {
    expect(await offeredRule({ tool: 'Edit', input: { file_path: '/p/src/ui/a.ts' }, cwd: '/p', projectRoot: '/p' })).toBe('Edit(/src/ui/**)');
    expect(await offeredRule({ tool: 'Write', input: { file_path: 'README.md' }, cwd: '/p', projectRoot: '/p' })).toBe('Write(/**)');
    expect(await offeredRule({ tool: 'Edit', input: { file_path: '/etc/passwd' }, cwd: '/p', projectRoot: '/p' })).toBeNull();
    expect(await offeredRule({ tool: 'mcp__github__create_issue', input: { title: 'x' } })).toBe('mcp__github__create_issue');
    expect(await offeredRule({ tool: 'WebFetch', input: { url: 'https://Docs.Example.com/a' } })).toBe('WebFetch(domain:docs.example.com)');
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
