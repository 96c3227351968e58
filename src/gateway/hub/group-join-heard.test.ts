import { describe, expect, it } from 'vitest';
import { FILL_UNITS } from './commit.ts';
import { groupJoinPerTest, type Hearing, turnEnds, until } from '../../testing/group-join-gateways.ts';

// D5: whether a waiting group takes units in, by what its gateway heard.
const { gateway, two, newSchema, schemaUrl, waitsForTheLock, waitForLockThenOne, listenReconnects } = groupJoinPerTest();

describe('D5 group commit on a shared database: a group waiting for the audit lock another gateway holds takes in more units', () => {
  it('[D5][R3][L1] units asked for while the group\'s unit waits for another gateway\'s audit lock join its one commit, answered after it', async () => {
    const { x, y } = await two();
    // The first gateway's group holds the audit log's lock until it commits.
    const holder = x.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    const first = y.unit('first', { audited: true });
    await waitsForTheLock(schemaUrl(), first, y.name);
    const second = y.unit('second');
    const third = y.unit('third');
    await turnEnds();
    const before = y.commits();
    holder.release();
    expect(await Promise.all([holder.answered, first.answered, second.answered, third.answered])).toEqual([true, true, true, true]);
    // One commit on the second gateway for the three (two on the code before: the waiting unit's group, then one for the
    // two asked for while it waited), and every answer after it (R3).
    expect(y.commits() - before).toBe(1);
    expect(y.log.slice(y.log.lastIndexOf('commit'))).toEqual(['commit', 'answer first', 'answer second', 'answer third']);
    await until(() => x.heard.includes('third'));
    expect(x.heard.filter((t) => ['first', 'second', 'third'].includes(t))).toEqual(['first', 'second', 'third']);
  });

  it(`[D5] at most ${FILL_UNITS} units join such a group: a stream of units cannot hold it open`, async () => {
    const { x, y } = await two();
    const holder = x.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    const first = y.unit('first', { audited: true });
    await waitsForTheLock(schemaUrl(), first, y.name);
    const more = Array.from({ length: FILL_UNITS + 2 }, (_, i) => y.unit(`more ${i}`));
    await turnEnds();
    const before = y.log.length;
    holder.release();
    expect(await Promise.all([first, ...more].map((u) => u.answered))).toEqual(Array(FILL_UNITS + 3).fill(true));
    // The first unit and FILL_UNITS joiners in one commit, the rest in the next.
    const after = y.log.slice(before);
    expect(after.filter((l) => l === 'commit')).toHaveLength(2);
    const second = after.indexOf('commit', after.indexOf('commit') + 1);
    expect(after.indexOf(`answer more ${FILL_UNITS - 1}`)).toBeLessThan(second);
    expect(after.indexOf(`answer more ${FILL_UNITS}`)).toBeGreaterThan(second);
  });

  it('[D5][R3] a gateway that heard no other gateway commit never holds a group open: each waiting unit commits as before', async () => {
    const schema = await newSchema();
    const one = await gateway(schema.url);
    // The lock held by this gateway's own group in another lane.
    const holder = one.unit('holder', { key: 'session-x', audited: true, held: true });
    await holder.wrote;
    const first = one.unit('first', { audited: true });
    await waitsForTheLock(schema.url, first, one.name);
    const second = one.unit('second');
    await turnEnds();
    holder.release();
    expect(await Promise.all([holder.answered, first.answered, second.answered])).toEqual([true, true, true]);
    // The waiting unit's group commits once it ended; the unit asked for after its turn's end goes into the next group.
    expect(one.commits()).toBe(3);
    expect(one.log.indexOf('answer first')).toBeLessThan(one.log.lastIndexOf('commit'));
    expect(one.log.indexOf('answer second')).toBeGreaterThan(one.log.lastIndexOf('commit'));
  });

  it('[D5] a gateway that committed since it heard another gateway commit holds no group open: each waiting unit commits as before', async () => {
    const { x, y } = await two();
    const mine = y.unit('mine', { key: 'session-b' });
    expect(await mine.answered).toBe(true);
    // The waiting unit's group, then the next one's (one commit for both when the group took the next unit in).
    expect(await waitForLockThenOne(x, y)).toBe(2);
  });

  it('[D5][L1] a gateway whose own other lane holds the audit lock holds no group open, though it heard another gateway commit', async () => {
    const { y } = await two();
    // The holder's group, the waiting unit's, then the next one's.
    expect(await waitForLockThenOne(y, y)).toBe(3);
  });

  it('[D5][D3] LISTEN reconnecting is no commit of another gateway: a gateway that heard none holds no group open', async () => {
    const schema = await newSchema();
    const x = await gateway(schema.url);
    const y = await gateway(schema.url);
    await listenReconnects(y);
    expect(await waitForLockThenOne(x, y)).toBe(2);
  });

  it('[D5][D3] a commit of another gateway read after a LISTEN reconnect (its notice missed) counts as heard: the group takes units in', async () => {
    const schema = await newSchema();
    const x = await gateway(schema.url);
    const hearing: Hearing = { deaf: true };
    const y = await gateway(schema.url, hearing);
    await x.unit('hello', { key: 'session-x' }).answered;
    hearing.deaf = false;
    hearing.reconnected!();
    await until(() => y.heard.includes('hello'));
    expect(await waitForLockThenOne(x, y)).toBe(1);
  });
});
