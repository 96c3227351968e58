import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Turn } from './turn.ts';

/** A socket stand-in: counts the write calls that reach the "kernel" and the frames in each. */
function fakeSocket(name: string, log: string[]) {
  const socket = new Writable({
    writev(chunks, done) {
      log.push(`${name}:${chunks.length}`);
      done();
    },
    write(_chunk, _enc, done) {
      log.push(`${name}:1`);
      done();
    },
  });
  return socket;
}

const nextIteration = () => new Promise((ok) => setImmediate(ok));

describe('Turn', () => {
  it('[R3] releases nothing before the turn settled, then each socket in one write', async () => {
    const log: string[] = [];
    const turn = new Turn();
    turn.onSettle(() => log.push('settle'));
    const a = fakeSocket('a', log);
    for (const frame of ['1', '2', '3']) {
      turn.hold(a, false);
      a.write(frame);
    }
    await Promise.resolve();
    expect(log).toEqual([]);
    await nextIteration();
    // The release step settles again first, for writes made by microtasks the first settle woke.
    expect(log).toEqual(['settle', 'settle', 'a:3']);
  });

  it('sends responses in the turn, and event-only sockets a few per iteration, oldest first', async () => {
    const log: string[] = [];
    const turn = new Turn(2);
    const sockets = ['e1', 'e2', 'e3', 'e4', 'e5'].map((name) => fakeSocket(name, log));
    for (const s of sockets) {
      turn.hold(s, false);
      s.write('event');
    }
    const answered = fakeSocket('res', log);
    turn.hold(answered, true);
    answered.write('response');
    // An event socket that also gets a response moves to the front.
    turn.hold(sockets[4], true);
    sockets[4].write('response');

    await nextIteration();
    expect(log).toEqual(['res:1', 'e5:2', 'e1:1', 'e2:1']);
    // Frames for a socket still waiting join its next write.
    turn.hold(sockets[2], false);
    sockets[2].write('later event');
    await nextIteration();
    expect(log.slice(4)).toEqual(['e3:2', 'e4:1']);
    await nextIteration();
    expect(log).toHaveLength(6);
  });
});
