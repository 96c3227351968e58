import { describe, expect, it } from 'vitest';
import { sessionSource } from './session-source.ts';

describe('sessionSource', () => {
  it('[T6][X5] a client\'s own session (`<client> · <folder>`) comes from an MCP client', () => {
    expect(sessionSource({ title: 'Claude Code · askdock' })).toBe('mcp');
    expect(sessionSource({ title: 'github-mcp · repo' })).toBe('mcp');
  });
  it('[X1] `askdock ask · <folder>` comes from the CLI; `Telegram · <chat>` from a channel', () => {
    expect(sessionSource({ title: 'askdock ask · repo' })).toBe('cli');
    expect(sessionSource({ title: 'Telegram · Ana' })).toBe('channel');
  });
  it('[U15] any other title is a chat with the agent', () => {
    expect(sessionSource({ title: 'deploy' })).toBe('agent');
    expect(sessionSource({ title: '' })).toBe('agent');
    expect(sessionSource({ title: 'a·b' })).toBe('agent');
  });
});
