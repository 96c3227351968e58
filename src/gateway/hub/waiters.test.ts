import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../testing/fake-clock.ts';
import { Inflight } from '../net/connection-frames.ts';
import { Waiters } from './waiters.ts';

const settled = async <T>(p: Promise<T>) => {
  let out: { value?: T; error?: unknown } | undefined;
  p.then((value) => (out = { value }), (error) => (out = { error }));
  await new Promise((ok) => setImmediate(ok));
  return out;
};

describe('waiters (Q4 waitAnswer, K1 waitResult)', () => {
  it('[Q4] a wake answers every waiter of the id once and leaves none behind', async () => {
    const w = new Waiters<string>(new FakeClock());
    const a = w.wait('q1', undefined, new Inflight(), (v) => `a:${v}`, () => 'timeout');
    const b = w.wait('q1', undefined, new Inflight(), (v) => `b:${v}`, () => 'timeout');
    const other = w.wait('q2', undefined, new Inflight(), (v) => v, () => 'timeout');
    w.wake('q1', 'answered');
    w.wake('q1', 'again');
    expect(await settled(a)).toEqual({ value: 'a:answered' });
    expect(await settled(b)).toEqual({ value: 'b:answered' });
    expect(w.waiting('q1')).toBe(false);
    expect(await settled(other)).toBeUndefined();
    expect(w.waiting('q2')).toBe(true);
  });

  it('[Q4] a value woken while waits are being set up is kept for them until the last of them is done', () => {
    const w = new Waiters<string>(new FakeClock());
    const first = w.expect('q1');
    const second = w.expect('q1');
    expect(w.waiting('q1')).toBe(true);
    expect(w.registered('q1')).toBe(false);
    w.wake('q1', 'answered');
    expect(first.outcome()).toBe('answered');
    expect(second.outcome()).toBe('answered');
    expect(first.done()).toBe(false);
    expect(w.waiting('q1')).toBe(true);
    expect(second.done()).toBe(true);
    expect(w.waiting('q1')).toBe(false);
    // A later set-up starts empty.
    expect(w.expect('q1').outcome()).toBeUndefined();
  });

  it('[Q4] its own timeout answers once, and a later wake finds nobody', async () => {
    const clock = new FakeClock();
    const w = new Waiters<string>(clock);
    const p = w.wait('q1', 1000, new Inflight(), (v) => v, () => 'pending');
    clock.advance(999);
    expect(await settled(p)).toBeUndefined();
    clock.advance(1);
    expect(await settled(p)).toEqual({ value: 'pending' });
    expect(w.waiting('q1')).toBe(false);
  });

  it('[P2] a cancelled request rejects with its reason, its timer is cleared and the waiter is gone', async () => {
    const clock = new FakeClock();
    const w = new Waiters<string>(clock);
    const request = new Inflight();
    const p = w.wait('q1', 1000, request, (v) => v, () => 'pending');
    request.cancel('cancelled by the client');
    const out = await settled(p);
    expect((out?.error as Error).message).toBe('cancelled by the client');
    expect(w.waiting('q1')).toBe(false);
    clock.advance(5000);
    w.wake('q1', 'late');
    expect(await settled(p)).toEqual(out);
  });

  it('[P2] a request cancelled before it waits rejects at once; an answered wait no longer hears the cancel', async () => {
    const w = new Waiters<string>(new FakeClock());
    const early = new Inflight();
    early.cancel('connection closed');
    expect(((await settled(w.wait('q1', undefined, early, (v) => v, () => 'pending')))?.error as Error).message).toBe('connection closed');
    expect(w.waiting('q1')).toBe(false);
    const request = new Inflight();
    const p = w.wait('q1', undefined, request, (v) => v, () => 'pending');
    w.wake('q1', 'answered');
    request.cancel('connection closed');
    expect(await settled(p)).toEqual({ value: 'answered' });
  });
});
