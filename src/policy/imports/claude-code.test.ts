import { describe, expect, it } from 'vitest';
import { compilePolicy } from '../compile.ts';
import { importClaudeCode } from './claude-code.ts';

// The settings.json shape of Claude Code's permission docs.
const SETTINGS = JSON.stringify({
  permissions: {
    allow: ['Bash(npm run lint)', 'Bash(npm run test:*)', 'Read(~/.zshrc)'],
    ask: ['Bash(git push:*)'],
    deny: ['WebFetch', 'Bash(curl:*)', 'Read(./.env)', 'Read(./secrets/**)'],
    defaultMode: 'acceptEdits',
  },
});

describe('[G8] askdock policy import claude-code', () => {
  it('[G8] permissions.allow/ask/deny become rules with their decision, and the result loads', () => {
    const out = importClaudeCode([{ path: '.claude/settings.json', text: SETTINGS }]);
    expect(out.refused).toEqual([]);
    expect(out.policy.rules.map((r) => [r.rule, r.decision])).toEqual([
      ['WebFetch', 'deny'],
      ['Bash(curl:*)', 'deny'],
      ['Read(./.env)', 'deny'],
      ['Read(./secrets/**)', 'deny'],
      ['Bash(git push:*)', 'ask'],
      ['Bash(npm run lint)', 'allow'],
      ['Bash(npm run test:*)', 'allow'],
      ['Read(~/.zshrc)', 'allow'],
    ]);
    expect(new Set(out.policy.rules.map((r) => r.id)).size).toBe(8);
    expect(compilePolicy(out.policy).ok).toBe(true);
  });
  it('[G8] a rule outside the grammar and a bad file are refused with why', () => {
    const out = importClaudeCode([
      { path: 'a.json', text: JSON.stringify({ permissions: { allow: ['Bash(npm test', 'Task(explore)', 'Bash(ls *)'] } }) },
      { path: 'b.json', text: '{nope' },
    ]);
    expect(out.policy.rules.map((r) => r.rule)).toEqual(['Bash(ls *)']);
    expect(out.refused).toEqual([
      { file: 'a.json', rule: 'Bash(npm test', why: expect.stringMatching(/must end with/) },
      { file: 'a.json', rule: 'Task(explore)', why: expect.stringMatching(/takes no specifier/) },
      { file: 'b.json', rule: '(the whole file)', why: expect.stringMatching(/bad JSON/) },
    ]);
  });
});
