import { describe, expect, it } from 'vitest';
import { requestOfRule, simpleToolMatcher as t } from './tool-matcher.ts';

describe('the stand-in tool matcher', () => {
  it('[E1] a rule names a tool, exactly or by prefix, and optionally what it does', () => {
    const push = { tool: 'Bash', input: { command: 'git push origin main' } };
    expect(t.matches('Bash(git push *)', push)).toBe(true);
    expect(t.matches('Bash(git push origin main)', push)).toBe(true);
    expect(t.matches('Bash(git pull *)', push)).toBe(false);
    expect(t.matches('Bash', push)).toBe(true);
    expect(t.matches('Edit', push)).toBe(false);
    expect(t.matches('mcp__github__*', { tool: 'mcp__github__create_issue', input: {} })).toBe(true);
    expect(t.matches('mcp__github__*', { tool: 'mcp__gitlab__create_issue', input: {} })).toBe(false);
  });

  it('[E1] refuses text that is not a rule', () => {
    expect(t.check('Bash(git push *)')).toBeNull();
    expect(t.check('Bash(')).toMatch(/must be a tool rule/);
    expect(t.check('')).toMatch(/must be a tool rule/);
  });

  it('[E10] reads the request a rule names', () => {
    expect(requestOfRule('Bash(git push origin main)')).toEqual({ tool: 'Bash', input: { command: 'git push origin main' } });
    expect(requestOfRule('mcp__github__create_issue')).toEqual({ tool: 'mcp__github__create_issue', input: {} });
    expect(requestOfRule('mcp__github__*')).toBeNull();
  });
});
