import { describe, expect, it } from 'vitest';
import { routeToolMatcher as t } from './route-tool-matcher.ts';

describe("a route's tool rule, matched by the policy's grammar", () => {
  it('[E1] a Bash rule covers a command when it covers any of its parts; path and MCP rules as the policy reads them', () => {
    expect(t.matches('Bash(git push *)', { tool: 'Bash', input: { command: 'git push origin main' } })).toBe(true);
    expect(t.matches('Bash(git push *)', { tool: 'Bash', input: { command: 'npm test && git push origin main' } })).toBe(true);
    expect(t.matches('Bash(git push *)', { tool: 'Bash', input: { command: 'git pull' } })).toBe(false);
    expect(t.matches('Edit', { tool: 'Write', input: { file_path: '/etc/hosts' } })).toBe(true);
    expect(t.matches('mcp__github__*', { tool: 'mcp__github__create_issue', input: {} })).toBe(true);
    expect(t.matches('mcp__github__*', { tool: 'mcp__gitlab__create_issue', input: {} })).toBe(false);
  });

  it('[E1] a rule outside the G1 grammar is named with why', () => {
    expect(t.check('Bash(git push *)')).toBeNull();
    expect(t.check('mcp__x(y)')).toMatch(/MCP tools take no specifier/);
    expect(t.matches('mcp__x(y)', { tool: 'mcp__x', input: {} })).toBe(false);
  });
});
