import { describe, expect, it } from 'vitest';
import { codexApprovals } from '../../agent/approval-facts.ts';
import { approvalDetail } from './approval-detail.ts';

describe('the approval question\'s detail (X2 through G11)', () => {
  it('[X2][G11] a command as it is, with its folder', () => {
    expect(approvalDetail({ tool: 'Bash', input: { command: 'npm run build' }, cwd: '/repo' })).toBe('npm run build\n\nin /repo');
  });

  it('[X2][G11] an Edit is the file and its diff; a MultiEdit one hunk an edit', () => {
    expect(approvalDetail({ tool: 'Edit', input: { file_path: '/repo/a.ts', old_string: 'let a = 1;', new_string: 'const a = 1;\nexport { a };' } })).toBe(
      '--- /repo/a.ts\n+++ /repo/a.ts\n-let a = 1;\n+const a = 1;\n+export { a };',
    );
    const edits = [{ old_string: 'x', new_string: 'y' }, { old_string: 'p', new_string: 'q' }];
    expect(approvalDetail({ tool: 'MultiEdit', input: { file_path: '/repo/b.ts', edits } })).toBe('--- /repo/b.ts\n+++ /repo/b.ts\n@@\n-x\n+y\n@@\n-p\n+q');
  });

  it('[X2][G11] a Write is the file and its new content; any other input is its JSON', () => {
    expect(approvalDetail({ tool: 'Write', input: { file_path: '/repo/n.md', content: '# New\n' } })).toBe('/repo/n.md (new content)\n\n# New\n');
    expect(approvalDetail({ tool: 'mcp__github__create_issue', input: { title: 'Bug' } })).toBe('{\n  "title": "Bug"\n}');
  });

  it('[X2][G4] a Codex apply_patch, asked as an Edit of each file it patches, is that file and the patch as written, not its JSON', () => {
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-let a = 1;\n+const a = 1;\n*** End Patch\n';
    const [edit] = codexApprovals('apply_patch', { command: patch }, { cwd: '/repo' });
    expect(edit.tool).toBe('Edit');
    expect(approvalDetail(edit)).toBe(`/repo/src/a.ts (patch)\n\n${patch}\n\nin /repo`);
  });
});
