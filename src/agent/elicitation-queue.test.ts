import { describe, expect, it } from 'vitest';
import { ElicitationQueue } from './elicitation-queue.ts';

/** A task the test finishes by hand, recording when it started. */
function gate(started: string[], name: string) {
  let finish = () => {};
  const done = new Promise<string>((ok) => (finish = () => ok(name)));
  return { run: () => (started.push(name), done), finish };
}

describe('X5 elicitation queue', () => {
  it('[X5] one at a time, in the order queued; one withdrawn while waiting leaves at once and is never asked', async () => {
    const queue = new ElicitationQueue();
    const started: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => gate(started, n));
    const withdrawn = new AbortController();
    const first = queue.run(new AbortController().signal, a.run);
    const second = queue.run(withdrawn.signal, b.run);
    const third = queue.run(new AbortController().signal, c.run);
    await Promise.resolve();
    expect(started).toEqual(['a']);
    withdrawn.abort(new Error('cancelled by the client'));
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    expect(started).toEqual(['a']);
    a.finish();
    expect(await first).toBe('a');
    await expect.poll(() => started).toEqual(['a', 'c']);
    c.finish();
    expect(await third).toBe('c');
    expect(started).toEqual(['a', 'c']);
  });

  it('[X5] one that fails does not hold up the next', async () => {
    const queue = new ElicitationQueue();
    const failing = queue.run(new AbortController().signal, () => Promise.reject(new Error('gateway unreachable')));
    const next = queue.run(new AbortController().signal, async () => 'asked');
    await expect(failing).rejects.toThrow('gateway unreachable');
    expect(await next).toBe('asked');
  });
});
