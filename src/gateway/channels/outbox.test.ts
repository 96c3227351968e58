import { describe, expect, it } from 'vitest';
import { ChannelOutbox } from './outbox.ts';
import { ChannelApiError } from './types.ts';

describe('ChannelOutbox', () => {
  it('[H6] waits the platform\'s retry_after, keeps order, and drops only permanent refusals', async () => {
    const logs: string[] = [];
    const outbox = new ChannelOutbox({ log: (l) => logs.push(l), baseDelayMs: 5, maxDelayMs: 20 });
    const done: string[] = [];
    const started: number[] = [];
    let tries = 0;
    outbox.enqueue('post', async () => {
      started.push(Date.now());
      if (++tries === 1) throw new ChannelApiError('rate limited', 120);
      if (tries === 2) throw new Error('network down');
      done.push('post');
    });
    outbox.enqueue('edit', async () => {
      done.push('edit');
    });
    outbox.enqueue('refused', async () => {
      throw new ChannelApiError('channel_not_found', undefined, true);
    });
    outbox.enqueue('after', async () => {
      done.push('after');
    });
    await outbox.idle();
    expect(done).toEqual(['post', 'edit', 'after']);
    expect(started[1] - started[0]).toBeGreaterThanOrEqual(115);
    expect(logs).toEqual([
      'post failed (attempt 1: rate limited); retrying in 120 ms',
      'post failed (attempt 2: network down); retrying in 10 ms',
      'refused refused by the platform, not retried: channel_not_found',
    ]);
  });

  it('[H5] a job queued again while it runs runs again, so a change meanwhile is not lost', async () => {
    const outbox = new ChannelOutbox({ log: () => {} });
    let runs = 0;
    const job = async () => {
      runs++;
      if (runs === 1) outbox.enqueue('sync', job);
    };
    outbox.enqueue('sync', job);
    outbox.enqueue('sync', job);
    await outbox.idle();
    expect(runs).toBe(2);
  });
});
