import { describe, expect, it } from 'vitest';
import { askerOf } from './asker.ts';

describe('askerOf', () => {
  it('[X5] a question in a client\'s own session names the client or wrapped server, then the asking identity', () => {
    expect(askerOf('agent', 'github-mcp · repo')).toEqual({ name: 'github-mcp', via: 'agent' });
    expect(askerOf('agent', 'Claude Code · askdock')).toEqual({ name: 'Claude Code', via: 'agent' });
  });
  it('[U12] elsewhere the asking identity alone', () => {
    expect(askerOf('agent', 'deploy')).toEqual({ name: 'agent' });
    expect(askerOf('agent', undefined)).toEqual({ name: 'agent' });
    expect(askerOf('agent', 'Telegram · Ana')).toEqual({ name: 'agent' });
    expect(askerOf('agent', 'askdock ask · repo')).toEqual({ name: 'agent' });
  });
});
