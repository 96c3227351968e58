import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { LostGroup, undoUnit } from './lost-group.ts';

/** A connection that records what it is sent and answers with `answer` (a rejection when it is an error). */
function connection(answer?: Error & { code?: string }): { client: pg.ClientBase; sent: string[] } {
  const sent: string[] = [];
  const client = {
    query: async (text: string) => {
      sent.push(text);
      if (answer) throw answer;
      return { rows: [], rowCount: 0, command: 'RELEASE' };
    },
  } as unknown as pg.ClientBase;
  return { client, sent };
}

const failure = (message: string, code?: string) => Object.assign(new Error(message), { code });

describe('[D5][R1] a group whose put-off write failed after its unit returned is lost', () => {
  it('[D5][R1] every unit of a group rolls back to a savepoint of its own; the next group numbers them afresh', () => {
    const group = new LostGroup();
    expect([group.nextSavepoint(), group.nextSavepoint(), group.nextSavepoint()]).toEqual(['askdock_sp0', 'askdock_sp1', 'askdock_sp2']);
    group.reset();
    expect(group.nextSavepoint()).toBe('askdock_sp0');
  });

  it('[D5][R1] once lost, every later unit and the commit fail with the error of the first write that failed, naming it', () => {
    const group = new LostGroup();
    expect(() => group.check()).not.toThrow();
    const first = failure('division by zero', '22012');
    const lost = group.lose(first);
    expect(lost.message).toBe('store: a write put off by a unit that had returned failed (division by zero): its group is undone');
    expect(lost.cause).toBe(first);
    // A later failure (a statement sent behind the aborted one) does not replace why the group was lost.
    expect(group.lose(failure('current transaction is aborted'))).toBe(lost);
    expect(() => group.check()).toThrow(lost);
    expect(() => group.check()).toThrow(lost);
  });

  it('[D5][R1] a cause that is not an Error is named as text; the next group starts not lost', () => {
    const group = new LostGroup();
    expect(group.lose('connection reset').message).toContain('(connection reset)');
    group.reset();
    expect(() => group.check()).not.toThrow();
  });

  it("[D5][R1] a unit is undone by rolling back to its own savepoint and releasing it: true when that worked", async () => {
    const { client, sent } = connection();
    await expect(undoUnit(client, 'askdock_sp3')).resolves.toBe(true);
    expect(sent).toEqual(['ROLLBACK TO SAVEPOINT askdock_sp3; RELEASE SAVEPOINT askdock_sp3']);
  });

  it('[D5][R1] a savepoint that does not exist (its SAVEPOINT was sent behind a write that failed) answers false: the group must be lost', async () => {
    const { client } = connection(failure('savepoint "askdock_sp3" does not exist', '3B001'));
    await expect(undoUnit(client, 'askdock_sp3')).resolves.toBe(false);
  });

  it('[D5][R1] a connection gone while undoing answers true: the transaction went with it and nothing of it was kept', async () => {
    const { client } = connection(failure('Connection terminated unexpectedly'));
    await expect(undoUnit(client, 'askdock_sp3')).resolves.toBe(true);
  });
});
