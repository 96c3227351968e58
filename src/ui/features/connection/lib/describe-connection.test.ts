import { describe, expect, it } from 'vitest';
import { describeConnection } from './describe-connection.ts';

describe('describeConnection', () => {
  it('[U11] says Connected once the handshake is done', () => {
    expect(describeConnection({ status: 'connected', attempt: 0 }, false, 0).label).toBe('Connected');
  });

  it('[U11] counts down to the next attempt in whole seconds', () => {
    const view = describeConnection({ status: 'reconnecting', attempt: 2, nextAttemptAtMs: 5_200 }, false, 1_000);
    expect(view).toMatchObject({ label: 'Reconnecting', retryInSeconds: 5, canRetry: true });
  });

  it('[U11] never shows a negative countdown', () => {
    expect(describeConnection({ status: 'reconnecting', attempt: 1, nextAttemptAtMs: 500 }, false, 9_000).retryInSeconds).toBe(0);
  });

  it('[U11] says Offline when the browser is offline, whatever the socket says', () => {
    expect(describeConnection({ status: 'reconnecting', attempt: 1 }, true, 0).label).toBe('Offline');
    expect(describeConnection({ status: 'offline', attempt: 1 }, false, 0).label).toBe('Offline');
  });

  it('a restarted client with no failed attempt is still Connecting', () => {
    expect(describeConnection({ status: 'reconnecting', attempt: 0 }, false, 0).label).toBe('Connecting');
  });

  it('says Disconnected when the client has given up', () => {
    expect(describeConnection({ status: 'closed', attempt: 0 }, false, 0)).toMatchObject({ label: 'Disconnected', canRetry: false });
  });
});
