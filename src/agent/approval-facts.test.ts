import { describe, expect, it } from 'vitest';
import { claudeApproval, codexApprovals, codexCommand, mcpApproval, patchedFiles, suggestionRules } from './approval-facts.ts';
import { ApprovalRequest } from '../protocol/policy.ts';

describe('what each agent asks, as the approval the policy judges (G4, G11)', () => {
  it('[G4] Claude Code: the tool as named, its input, and its addRules suggestions as G1 rules (modes and folders are no rules)', () => {
    const suggestions = [
      { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }, { toolName: 'mcp__github__create_issue' }], behavior: 'allow', destination: 'localSettings' },
      { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
      { type: 'addDirectories', directories: ['/tmp'] },
      { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'rm *' }], behavior: 'deny' },
    ];
    const a = claudeApproval('Bash', { command: 'npm test -- --run' }, suggestions, 'claude-code', { cwd: '/home/dev/shop' });
    expect(a).toEqual({ tool: 'Bash', input: { command: 'npm test -- --run' }, cwd: '/home/dev/shop', agent: 'claude-code', suggestions: ['Bash(npm test:*)', 'mcp__github__create_issue'] });
    expect(ApprovalRequest.safeParse(a).success).toBe(true);
    expect(suggestionRules([{ type: 'setMode', mode: 'plan' }])).toEqual([]);
  });

  it('[G4] Codex: its shell tool is Bash with the command; an array is joined shell-quoted, `bash -lc SCRIPT` is its script', () => {
    expect(codexApprovals('Bash', { command: 'npm publish', description: 'd' }, { cwd: '/w' })).toEqual([{ tool: 'Bash', input: { command: 'npm publish', description: 'd' }, cwd: '/w', agent: 'codex' }]);
    expect(codexCommand(['git', 'commit', '-m', "it's done"])).toBe(`git commit -m 'it'\\''s done'`);
    expect(codexCommand(['bash', '-lc', 'npm test && npm run lint'])).toBe('npm test && npm run lint');
    expect(codexCommand(['ls', 'a b', '$(x)'])).toBe("ls 'a b' '$(x)'");
    expect(codexApprovals('shell', { command: ['rm', '-rf', '/tmp/x y'] })[0]).toMatchObject({ tool: 'Bash', input: { command: "rm -rf '/tmp/x y'" } });
  });

  it('[G4] Codex: apply_patch is one Edit for every file the patch adds, updates, deletes or moves to', () => {
    const patch = ['*** Begin Patch', '*** Update File: src/a.ts', '@@', '-a', '+b', '*** Move to: src/b.ts', '*** Add File: docs/n.md', '+x', '*** Delete File: old.txt', '*** End Patch', ''].join('\n');
    expect(patchedFiles(patch)).toEqual(['src/a.ts', 'src/b.ts', 'docs/n.md', 'old.txt']);
    const approvals = codexApprovals('apply_patch', { command: patch.replace('old.txt', '/tmp/old.txt') }, { cwd: '/w' });
    // Named absolutely, as Claude Code's Edit names its file: a relative path is read from the folder Codex runs in.
    expect(approvals.map((a) => [a.tool, a.input.file_path])).toEqual([['Edit', '/w/src/a.ts'], ['Edit', '/w/src/b.ts'], ['Edit', '/w/docs/n.md'], ['Edit', '/tmp/old.txt']]);
    // A patch naming no file is judged as the tool it is (the policy then asks, as for any unmatched tool).
    expect(codexApprovals('apply_patch', { command: 'nonsense' })).toEqual([{ tool: 'apply_patch', input: { command: 'nonsense' }, agent: 'codex' }]);
  });

  it('[G4] an MCP tool call is mcp__<server>__<tool> with its arguments as input, agent mcp', () => {
    expect(mcpApproval('github', 'create_issue', { title: 'x' }, { cwd: '/w' })).toEqual({ tool: 'mcp__github__create_issue', input: { title: 'x' }, cwd: '/w', agent: 'mcp' });
    expect(mcpApproval('Shop Tools', 'delete.all', {}).tool).toBe('mcp__Shop_Tools__delete_all');
  });
});
