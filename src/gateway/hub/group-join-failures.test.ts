import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { questionRecord } from '../../testing/question-record.ts';
import { groupJoinPerTest, turnEnds, until } from '../../testing/group-join-gateways.ts';

// D5/R3: units of a filling group that fail, are refused the lock or lose the connection.
const { gateway, two, newSchema, schemaUrl, waitsForTheLock, onLockWaiter } = groupJoinPerTest();

describe('D5 group commit on a shared database: a group waiting for the audit lock another gateway holds takes in more units', () => {
  it('[D5][R3] units that would join a group whose connection is gone go into a group of their own, and are kept', async () => {
    const schema = await newSchema();
    const x = await gateway(schema.url);
    const y = await gateway(schema.url);
    await x.unit('hello', { key: 'session-x' }).answered;
    await until(() => y.heard.includes('hello'));
    const holder = x.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    const first = y.unit('first', { audited: true });
    first.answered.catch(() => {});
    await waitsForTheLock(schema.url, first, y.name);
    const second = y.unit('second');
    const third = y.unit('third');
    await turnEnds();
    await onLockWaiter('pg_terminate_backend', y.name);
    await expect(first.ran).rejects.toThrow();
    expect(await Promise.all([second.answered, third.answered])).toEqual([true, true]);
    holder.release();
    expect(await holder.answered).toBe(true);
    await until(() => x.heard.includes('third'));
  });

  it('[D5][R3] a unit asked for while a filling group is lost by a put-off write that failed goes into a group of its own, and is kept', async () => {
    const { x, y } = await two();
    await y.store.createSession({ key: 's1', title: 's1', createdBy: 'op', agentId: null, createdAtMs: 1_000, lastMessageAtMs: null });
    const admin = new pg.Client({ connectionString: schemaUrl() });
    await admin.connect();
    try {
      await admin.query(`ALTER TABLE questions ADD CONSTRAINT test_refused CHECK (id <> 'q-refused')`);
    } finally {
      await admin.end();
    }
    const insert = (id: string, idIsNew: boolean) => () => y.store.insertQuestion(questionRecord({ id, sessionKey: 's1' }), undefined, idIsNew);
    const holder = x.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    const first = y.unit('first', { audited: true });
    await waitsForTheLock(schemaUrl(), first, y.name);
    // Queued in the filling group's lane behind `first`: the first insert prepares its statement, the refused one is put
    // off past its unit and fails on the next unit's statement, which loses the group; `later` is already asked for.
    const units = [y.unit('prepares', { write: insert('q-0', true) }), y.unit('refused', { write: insert('q-refused', true) }), y.unit('carrier', { write: insert('q-after', false) })];
    for (const u of [first, ...units]) u.answered.catch(() => {});
    const later = y.unit('later');
    await turnEnds();
    holder.release();
    expect(await holder.answered).toBe(true);
    await expect(units[2].ran).rejects.toThrow(/a write put off by a unit that had returned failed/);
    expect(await Promise.all([first.answered, units[0].answered, units[1].answered])).toEqual([false, false, false]);
    // Not taken into the lost group (it would fail with it): the group is undone first and `later` begins the next.
    expect(await later.answered).toBe(true);
    expect((await y.store.listQuestions({})).map((q) => q.id)).toEqual([]);
    await until(() => x.heard.includes('later'));
  });

  it('[D5][R3] a unit that fails in a group taking units in is undone alone: the group goes on taking units in, one commit', async () => {
    const { x, y } = await two();
    const holder = x.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    // Asked for in one turn, whose end finds the first waiting for the lock: the group holds all three until they ended.
    const first = y.unit('first', { audited: true });
    const failing = y.unit('failing', { fails: true });
    failing.answered.catch(() => {});
    const held = y.unit('held', { held: true });
    await waitsForTheLock(schemaUrl(), first, y.name);
    const before = y.commits();
    holder.release();
    await expect(failing.ran).rejects.toThrow('failing fails');
    await held.wrote;
    // Asked for after the failure, while a unit the group holds still runs: it joins (the code before committed the
    // group behind the held unit and put this one in the next group: two commits).
    const later = y.unit('later');
    await turnEnds();
    held.release();
    expect(await Promise.all([holder.answered, first.answered, held.answered, later.answered])).toEqual([true, true, true, true]);
    expect(y.commits() - before).toBe(1);
    await until(() => x.heard.includes('later'));
    // The failed unit's write alone was undone.
    expect(x.heard.filter((t) => ['first', 'failing', 'held', 'later'].includes(t))).toEqual(['first', 'held', 'later']);
  });

  it('[D5][R3][L1] a unit refused the audit lock ends the filling: the units its group holds are answered without waiting for the lock again', async () => {
    const { x, y } = await two();
    const holder = x.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    const first = y.unit('first', { audited: true });
    first.answered.catch(() => {});
    const held = y.unit('held', { held: true });
    await waitsForTheLock(schemaUrl(), first, y.name);
    const before = y.commits();
    // Refused the lock (canceled, as lock_timeout cancels it): undone alone, and the group waits for no lock any more.
    await onLockWaiter('pg_cancel_backend', y.name);
    await expect(first.ran).rejects.toThrow();
    await held.wrote;
    // Asked for while the held unit runs; it waits for the lock, which the other gateway still holds.
    const later = y.unit('later', { audited: true });
    await turnEnds();
    held.release();
    await waitsForTheLock(schemaUrl(), later, y.name);
    // The held unit's group committed without it: its answer does not wait for the lock again (had the group taken
    // `later` in, it would wait for the other gateway's commit, or lock_timeout, with nothing committed yet).
    expect(y.commits() - before).toBe(1);
    expect(await held.answered).toBe(true);
    holder.release();
    expect(await Promise.all([holder.answered, later.answered])).toEqual([true, true]);
    expect(y.commits() - before).toBe(2);
    await until(() => x.heard.includes('later'));
    expect(x.heard.filter((t) => ['first', 'held', 'later'].includes(t))).toEqual(['held', 'later']);
  });
});
