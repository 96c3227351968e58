import { describe, expect, it } from 'vitest';
import { realClock } from '../infra/clock.ts';
import { EventHub, RequestScope } from './hub.ts';
import { FILL_UNITS } from './commit.ts';
import { memoryLogger } from '../infra/logger.ts';
import { Turn } from './turn.ts';
import { postgresStorePerTest } from '../../testing/postgres-store-per-test.ts';

type Tx = Parameters<Parameters<EventHub['commit']>[0]>[0];
const session = (key: string) => ({ key, title: key, createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 0 });
const turnEnds = () => new Promise((ok) => setImmediate(() => setImmediate(ok)));

const stores = postgresStorePerTest();

/** A hub on PostgreSQL whose lanes' commits are written down in `log`, in order with what the test adds there. */
async function setup() {
  const { store } = await stores.open('groupjoin');
  const log: string[] = [];
  const lane = store.lane.bind(store);
  store.lane = (i) => {
    const l = lane(i);
    const commitGroup = async () => {
      await l.commitGroup();
      log.push('commit');
    };
    return { ...l, commitGroup };
  };
  const hub = new EventHub({ store, clock: realClock, view: (_v, _e, shared) => shared(), checkPayloads: false, log: memoryLogger().log, turn: new Turn(), onRollback: () => {} });
  await hub.start();
  const events: string[] = [];
  hub.listenAll((ev) => events.push(ev.event === 'session.updated' ? (ev.payload as { session: { title: string } }).session.title : ev.event));
  /** A unit of session `key` in a request of its own that writes `name`, held open until `release`; `answered` once durable. */
  const unit = (name: string, key = 'session-a') => {
    let release!: () => void;
    const gate = new Promise<void>((ok) => (release = ok));
    const scope = new RequestScope();
    const ran = hub.request(scope, () => Promise.resolve(), () =>
      hub.commit(async (tx: Tx) => {
        await tx.emit('session.updated', { session: { ...session(key), title: name } }, { sessionKey: key });
        await gate;
      }, key),
    );
    const answered = ran.then(() => {
      scope.finish();
      return new Promise<boolean>((ok) => hub.whenDurable(ok, scope));
    }).then((kept) => (log.push(`answer ${name}`), kept));
    return { release, ran, answered };
  };
  return { hub, log, events, unit };
}

describe('D5 group commit on a shared database: units join a running group until its commit is asked for', () => {
  it('[D5][R3] units asked for while the group\'s unit still runs past its turn\'s end join its one commit, answered after it', async () => {
    const { log, events, unit } = await setup();
    // The first unit runs past its turn's end, as one waiting for a lock another gateway's group holds.
    const first = unit('first');
    await turnEnds();
    const second = unit('second');
    const third = unit('third');
    second.release();
    third.release();
    await turnEnds();
    expect(log).toEqual([]);
    first.release();
    expect(await Promise.all([first.answered, second.answered, third.answered])).toEqual([true, true, true]);
    // One commit for the three (two on the code before: the first unit's group, then one for the two that came later),
    // and every answer after it.
    expect(log).toEqual(['commit', 'answer first', 'answer second', 'answer third']);
    expect(events).toEqual(['first', 'second', 'third']);
  });

  it('[D5][R3] a unit asked for once the group\'s commit was asked for goes into the next group; a lone unit commits alone', async () => {
    const { log, events, unit } = await setup();
    const first = unit('first');
    await turnEnds();
    const second = unit('second');
    first.release();
    // The first unit ended: the group's commit is asked for, behind the second unit, which joined it.
    await first.ran;
    expect(log).toEqual([]);
    const late = unit('late');
    late.release();
    second.release();
    expect(await Promise.all([first.answered, second.answered, late.answered])).toEqual([true, true, true]);
    expect(log.filter((l) => l === 'commit')).toHaveLength(2);
    expect(log.indexOf('answer late')).toBeGreaterThan(log.lastIndexOf('commit'));
    expect(log.indexOf('answer second')).toBeLessThan(log.lastIndexOf('commit'));
    expect(events).toEqual(['first', 'second', 'late']);
    const lone = unit('lone');
    lone.release();
    expect(await lone.answered).toBe(true);
    expect(log.filter((l) => l === 'commit')).toHaveLength(3);
  });

  it(`[D5] at most ${FILL_UNITS} units join a group past its turn's end: a stream of units cannot hold it open`, async () => {
    const { log, events, unit } = await setup();
    const first = unit('first');
    await turnEnds();
    const more = Array.from({ length: FILL_UNITS + 2 }, (_, i) => unit(`more ${i}`));
    for (const u of more) u.release();
    first.release();
    expect(await Promise.all([first, ...more].map((u) => u.answered))).toEqual(Array(FILL_UNITS + 3).fill(true));
    // The first unit and FILL_UNITS - 1 joiners, then the rest.
    expect(log.indexOf('commit', log.indexOf('commit') + 1)).toBeGreaterThan(log.indexOf(`answer more ${FILL_UNITS - 2}`));
    expect(log.indexOf(`answer more ${FILL_UNITS - 1}`)).toBeGreaterThan(log.lastIndexOf('commit'));
    expect(events).toEqual(['first', ...more.map((_, i) => `more ${i}`)]);
  });
});
