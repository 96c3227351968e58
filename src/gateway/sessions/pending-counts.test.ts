import { afterEach, describe, expect, it } from 'vitest';
import type { Session } from '../../protocol/index.ts';
import { item, startTestGateway, type TestGateway, type Who } from '../../testing/gateway-harness.ts';
import type { TestClient } from '../../testing/ws-client.ts';
import { countingStore } from '../../testing/counting-store.ts';
import { createMemoryStore } from '../store/memory.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { Store } from '../store/types.ts';

let t: TestGateway | undefined;
let store: Store | undefined;
afterEach(async () => {
  await t?.close();
  await store?.close();
  t = undefined;
  store = undefined;
});

/** Every read that hands back questions or their tallies: each row it returns is one the count made the gateway read. */
const READS: readonly PropertyKey[] = ['getQuestion', 'listQuestions', 'dueQuestions', 'pendingTallies'];

const engines = { memory: () => createMemoryStore(), sqlite: () => openSqliteStore(':memory:') };

const ask = (agent: TestClient, sessionKey: string, privileged: boolean) =>
  agent.call('question.request', { sessionKey, mode: 'async', ...(privileged ? { privileged } : {}), questions: [item()] });

const countIn = (sessions: Session[], key: string) => sessions.find((s) => s.key === key)?.pendingQuestions;

describe.each(Object.keys(engines) as (keyof typeof engines)[])('pending counts (%s store)', (engine) => {
  it('[A3] a guest\'s count of its session reads as many rows with 20 pending questions as with 2 (sessions.list and session.updated)', async () => {
    const counted = countingStore((store = engines[engine]()), READS);
    t = await startTestGateway({ store: counted.store });
    const admin = await t.connect('admin');
    const guest = await t.connect('guest');
    const agent = await t.connect('agent');
    const { session } = await guest.call('sessions.create', { title: 'Own' });
    /** The guest's count and the rows read for it: in its list, and in the session.updated of a rename. */
    const measure = async (title: string) => {
      counted.reset();
      const listed = countIn((await guest.call('sessions.list', {})).sessions, session.key);
      const listRows = counted.examined();
      counted.reset();
      await admin.call('sessions.update', { sessionKey: session.key, title });
      const told = await guest.waitEvent('session.updated', (e) => e.session.key === session.key && e.session.title === title, 20_000);
      return { listed, told: told.session.pendingQuestions, listRows, eventRows: counted.examined() };
    };
    // Half of them privileged, asked by the agent: hidden from the guest (A3), counted for no one but it and answerers.
    for (let i = 0; i < 2; i++) await ask(agent, session.key, i % 2 === 1);
    const few = await measure('two');
    for (let i = 2; i < 20; i++) await ask(agent, session.key, i % 2 === 1);
    const many = await measure('twenty');
    expect([few.listed, few.told, many.listed, many.told]).toEqual([1, 1, 10, 10]);
    expect(many.listRows, 'rows read for sessions.list').toBe(few.listRows);
    expect(many.eventRows, 'rows read for a session.updated').toBe(few.eventRows);
  });

  it('[A3][A4][R2] counts leave out what each identity may not see: in sessions.list, in session.updated and in a replay after reconnect', async () => {
    t = await startTestGateway(engine === 'memory' ? { memory: true } : {});
    const who: Who[] = ['admin', 'guest', 'guest2', 'reader', 'writer', 'agent', 'agent2'];
    const c = {} as Record<Who, TestClient>;
    const as = (w: Who) => (w === 'agent' ? { clientId: 'agent-main' } : {});
    for (const w of who) c[w] = await t.connect(w, as(w));
    const { session } = await c.guest.call('sessions.create', { title: 'Own' });
    // A6: the bound agent hears its session's events once subscribed.
    await c.agent.call('agent.subscribe', { sessionKey: session.key });
    for (const privileged of [false, false, true, true, true]) await ask(c.agent, session.key, privileged);
    // The guest owns the session yet never sees its agent's privileged questions; a reader sees none; the others are not in it.
    const want: Partial<Record<Who, number>> = { admin: 5, guest: 2, reader: 0, writer: 0, agent: 5 };
    const outside: Who[] = ['guest2', 'agent2'];
    for (const w of who) expect(countIn((await c[w].call('sessions.list', {})).sessions, session.key), `${w} sessions.list`).toBe(want[w]);

    await c.admin.call('sessions.update', { sessionKey: session.key, title: 'Renamed' });
    for (const w of Object.keys(want) as Who[]) {
      const e = await c[w].waitEvent('session.updated', (p) => p.session.key === session.key && p.session.title === 'Renamed', 20_000);
      expect(e.session.pendingQuestions, `${w} session.updated`).toBe(want[w]);
    }

    // Away, then back with its cursor: two more privileged questions and one open one were asked meanwhile.
    const cursors = {} as Record<Who, number>;
    for (const w of who) {
      cursors[w] = c[w].seqEvents().reduce((top, e) => Math.max(top, e.seq!), c[w].hello!.snapshot.cursor);
      await c[w].close();
      await c[w].waitClose();
    }
    const agentBack = await t.connect('agent');
    for (const privileged of [true, false, true]) await ask(agentBack, session.key, privileged);
    const admin = await t.connect('admin');
    await admin.call('sessions.update', { sessionKey: session.key, title: 'Back' });
    const later: Partial<Record<Who, number>> = { admin: 8, guest: 3, reader: 0, writer: 0, agent: 8 };
    for (const w of who) {
      const back = await t.open();
      const res = await back.connect(`token-of-${w}-0123456789`, { resume: { cursor: cursors[w] }, ...as(w) });
      expect(res.ok && back.hello!.resumed, `${w} resumed`).toBe(true);
      if (outside.includes(w)) {
        await back.call('sessions.list', {});
        expect(back.events.filter((e) => e.event === 'session.updated'), `${w} replay`).toEqual([]);
        continue;
      }
      const last = await back.waitEvent('session.updated', (p) => p.session.key === session.key && p.session.title === 'Back', 20_000);
      expect(last.session.pendingQuestions, `${w} replayed session.updated`).toBe(later[w]);
      const told = back.events
        .filter((e) => e.event === 'session.updated')
        .map((e) => (e.payload as { session: Session }).session.pendingQuestions);
      // Never more than it may see, in any replayed update.
      expect(Math.max(...told), `${w} replayed counts`).toBeLessThanOrEqual(later[w]!);
    }
  });
});
