import { afterEach, describe, expect, it } from 'vitest';
import { realClock } from '../infra/clock.ts';
import { EventHub } from './hub.ts';
import { memoryLogger } from '../infra/logger.ts';
import { Turn } from './turn.ts';
import { openPostgresStore } from '../store/postgres/store.ts';
import { freshSchema } from '../../testing/postgres.ts';

type Unit = Parameters<EventHub['commit']>[0];
const turnEnds = () => new Promise((ok) => setImmediate(() => setImmediate(ok)));
const opened: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

/** A hub on a fresh PostgreSQL schema that counts its lanes' commits and hears the title of every session it sends. */
async function setup() {
  const schema = await freshSchema('fill');
  opened.push({ close: () => schema.drop() });
  const store = await openPostgresStore(schema.url);
  opened.push(store);
  const commits = { n: 0 };
  const lane = store.lane.bind(store);
  store.lane = (i) => {
    const l = lane(i);
    return { ...l, commitGroup: async () => (await l.commitGroup(), void commits.n++) };
  };
  const hub = new EventHub({ store, clock: realClock, view: (_v, _e, shared) => shared(), checkPayloads: false, log: memoryLogger().log, turn: new Turn(), onRollback: () => {} });
  await hub.start();
  const heard: string[] = [];
  hub.listenAll((ev) => heard.push((ev.payload as { session: { title: string } }).session.title));
  const emit = (key: string, title: string): Unit => (tx) =>
    tx.emit('session.updated', { session: { key, title, createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 0 } }, { sessionKey: key });
  const durable = () => new Promise<boolean>((ok) => hub.whenDurable(ok));
  return { hub, commits, heard, emit, durable };
}

describe('D5 group commit on a shared database: units asked for while a group runs join it', () => {
  it('[D5][R3] a unit asked for after the turn ended, while its lane\'s group still runs a unit, commits with that group: one commit, both events out in order', async () => {
    const { hub, commits, heard, emit, durable } = await setup();
    let release!: () => void;
    const gate = new Promise<void>((ok) => (release = ok));
    const first = hub.commit(async (tx) => {
      await emit('a', 'first')(tx);
      await gate;
    }, 'a');
    // The turn that began the group ends while its unit still runs.
    await turnEnds();
    const second = hub.commit(emit('a', 'second'), 'a');
    await turnEnds();
    let firstDurable = false;
    hub.whenDurable(() => (firstDurable = true));
    release();
    await Promise.all([first, second]);
    expect(await durable()).toBe(true);
    // Before, the second unit waited for the first's commit and made a group (and a commit) of its own: 2.
    expect(commits.n).toBe(1);
    expect(firstDurable).toBe(true);
    await expect.poll(() => heard).toEqual(['first', 'second']);
  });

  it('[D5][R3] a lone unit commits as soon as it ends, with nothing asked for after it', async () => {
    const { hub, commits, heard, emit, durable } = await setup();
    await hub.commit(emit('b', 'lone'), 'b');
    expect(await durable()).toBe(true);
    expect(commits.n).toBe(1);
    await expect.poll(() => heard).toEqual(['lone']);
  });
});
