import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '../client/client.ts';
import { CONNECTION_LOST, outageNotices, RECONNECTED } from './outage.ts';

const state = (status: ConnectionState['status'], attempt = 0): ConnectionState => ({ status, attempt });

describe('askdock ask connection lines', () => {
  it('[U11] one line when the connection is lost and one when it is back, however many attempts lie between', () => {
    const lines: string[] = [];
    const notice = outageNotices((line) => lines.push(line));
    notice(state('connected'));
    for (let attempt = 1; attempt <= 5; attempt++) notice(state('reconnecting', attempt));
    notice(state('offline', 6));
    notice(state('connecting', 6));
    notice(state('connected'));
    notice(state('connected'));
    expect(lines).toEqual([CONNECTION_LOST, RECONNECTED]);
    notice(state('reconnecting', 1));
    notice(state('reconnecting', 2));
    expect(lines).toEqual([CONNECTION_LOST, RECONNECTED, CONNECTION_LOST]);
    expect(CONNECTION_LOST).toBe('connection lost, reconnecting…');
  });

  it('[U11] says nothing before the first connection', () => {
    const lines: string[] = [];
    const notice = outageNotices((line) => lines.push(line));
    notice(state('connecting'));
    notice(state('reconnecting', 1));
    expect(lines).toEqual([]);
  });
});
