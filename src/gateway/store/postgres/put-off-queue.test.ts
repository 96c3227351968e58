import { describe, expect, it } from 'vitest';
import { PutOffQueue } from './put-off-queue.ts';

describe('[D5] statements a transaction puts off ride with its next one', () => {
  it('[D5] what waits is handed over once, in order, ready to have the next statement appended', () => {
    const q = new PutOffQueue();
    expect(q.handOver()).toBe('');
    expect([q.add('BEGIN'), q.add('SAVEPOINT askdock_sp1')]).toEqual([0, 1]);
    expect(q.handOver()).toBe('BEGIN; SAVEPOINT askdock_sp1; ');
    expect(q.handOver()).toBe('');
    // Positions keep counting across hand-overs.
    expect(q.add('RELEASE SAVEPOINT askdock_sp1')).toBe(2);
  });

  it('[D5] a unit that sent nothing takes its SAVEPOINT back: it costs no round trip; one already sent cannot be', () => {
    const q = new PutOffQueue();
    q.add('BEGIN');
    const at = q.add('SAVEPOINT askdock_sp1');
    expect(q.takeBack(at)).toBe(true);
    expect(q.handOver()).toBe('BEGIN; ');
    const sent = q.add('SAVEPOINT askdock_sp2');
    expect(q.handOver()).toBe('SAVEPOINT askdock_sp2; ');
    expect(q.takeBack(sent)).toBe(false);
  });

  it('[D5] a put-off write is taken back only with the unit that wrote it undone', () => {
    const q = new PutOffQueue();
    const at = q.add('SAVEPOINT askdock_sp1');
    q.addWrite('EXECUTE w1');
    // The unit returned: its write must still reach the database, so its SAVEPOINT stays too.
    expect(q.takeBack(at)).toBe(false);
    expect(q.takeBack(at, true)).toBe(true);
    expect(q.handOver()).toBe('');
    q.add('SAVEPOINT askdock_sp2');
    q.addWrite('EXECUTE w2');
    expect(q.handOver()).toBe('SAVEPOINT askdock_sp2; EXECUTE w2; ');
  });

  it('[D5] dropping what waits keeps what was sent; clearing starts the next transaction from position 0', () => {
    const q = new PutOffQueue();
    q.add('BEGIN');
    q.handOver();
    q.add('SAVEPOINT askdock_sp1');
    q.addWrite('EXECUTE w1');
    q.dropWaiting();
    expect(q.handOver()).toBe('');
    expect(q.add('RELEASE SAVEPOINT askdock_sp0')).toBe(1);
    q.clear();
    expect(q.handOver()).toBe('');
    expect(q.add('BEGIN')).toBe(0);
  });

  it('[D5] a position dropped already with one put off before it is taken back as gone: what waits stays as it is', () => {
    const q = new PutOffQueue();
    q.add('BEGIN');
    const first = q.add('SAVEPOINT askdock_sp1');
    const second = q.add('SAVEPOINT askdock_sp2');
    expect(q.takeBack(first, true)).toBe(true);
    expect(q.takeBack(second)).toBe(true);
    expect(q.add('SAVEPOINT askdock_sp3')).toBe(first);
    expect(q.handOver()).toBe('BEGIN; SAVEPOINT askdock_sp3; ');
  });
});
