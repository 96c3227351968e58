import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { realClock } from '../../infra/clock.ts';
import { memoryLogger } from '../../infra/logger.ts';
import { EventHub, RequestScope } from '../../hub/hub.ts';
import { Turn } from '../../hub/turn.ts';
import { freshSchema } from '../../../testing/postgres.ts';
import type { StoredQuestion } from '../types.ts';
import type { SharedStore } from './cluster.ts';
import { openPostgresStore } from './store.ts';

const question = (id: string): StoredQuestion => ({
  id,
  sessionKey: 's1',
  askedBy: 'agent',
  mode: 'blocking',
  questions: [{ id: 'pick', header: 'Pick', question: 'Which one?', options: [{ label: 'A' }, { label: 'B' }] }],
  createdAtMs: 1_000,
  expiresAtMs: 901_000,
  status: 'pending',
});

/**
 * Runs `fn` with a hub on a fresh store whose questions table refuses the id `q-refused` (a constraint no insert sees
 * coming), and a connection of its own to the same schema.
 */
async function withHub(fn: (hub: EventHub, s: SharedStore, other: pg.Client) => Promise<void>): Promise<void> {
  const schema = await freshSchema('putoff');
  const s = await openPostgresStore(schema.url);
  const other = new pg.Client({ connectionString: schema.url });
  try {
    await s.createSession({ key: 's1', title: 's1', createdBy: 'op', agentId: null, createdAtMs: 1_000, lastMessageAtMs: null });
    await other.connect();
    await other.query(`ALTER TABLE questions ADD CONSTRAINT test_refused CHECK (id <> 'q-refused')`);
    const turn = new Turn();
    await fn(new EventHub({ store: s, clock: realClock, view: (_v, _e, shared) => shared(), checkPayloads: false, log: memoryLogger().log, turn, onRollback: () => {} }), s, other);
  } finally {
    await other.end();
    await s.close();
    await schema.drop();
  }
}

type Outcome = { id: string; error?: string; acknowledged?: boolean };

/**
 * One request as a handler runs it: a unit that inserts question `id` (as new: `idIsNew`) and emits an event about it;
 * acknowledged when the unit returned and its group was kept (R3: the answer waits for whenDurable).
 */
function ask(hub: EventHub, s: SharedStore, id: string, idIsNew: boolean, then: 'readBack' | 'audit' | 'swallow' | null = null): Promise<Outcome> {
  const scope = new RequestScope();
  const unit = hub.request(scope, () => Promise.resolve(), () =>
    hub.commit(async (tx) => {
      await s.insertQuestion(question(id), undefined, idIsNew);
      // A statement of its own after the insert: a write it put off leaves with it.
      if (then === 'readBack') await s.getQuestion(id);
      // As the ask does (L1): an audit entry whose index nobody reads.
      if (then === 'audit') await s.appendAuditUnread({ atMs: 1_000, event: 'question.asked', identity: 'agent', questionId: id });
      // A unit that reads in a nested transaction and goes on without it when that fails.
      if (then === 'swallow') await s.transaction(() => s.getQuestion('q-0')).catch(() => undefined);
      await tx.emit('question.retired', { id }, { sessionKey: 's1' });
    }, 's1'),
  );
  return unit.then(
    () => {
      scope.finish();
      return new Promise<Outcome>((ok) => hub.whenDurable((acknowledged) => ok({ id, acknowledged }), scope));
    },
    (err: unknown) => ({ id, error: String(err) }),
  );
}

describe('D5 a one-row write put off past the unit that wrote it', () => {
  it('[D5][R1][R3] that fails on a later unit\'s statement is never acknowledged, nor is its group; no acknowledged write is lost; the unit that carried it is told why', () =>
    withHub(async (hub, s) => {
    // One group: the first insert prepares its statement on the group's connection (a round trip of its own); the
    // refused one is then put off and leaves with the next unit's first statement.
    const outcomes = await Promise.all([ask(hub, s, 'q-0', true), ask(hub, s, 'q-refused', true), ask(hub, s, 'q-after', false)]);
    const byId = Object.fromEntries(outcomes.map((o) => [o.id, o]));

    // Whatever a client was told was kept is stored, and its event with it; nothing else is.
    const acknowledged = outcomes.filter((o) => o.acknowledged).map((o) => o.id);
    for (const id of acknowledged) expect((await s.getQuestion(id))?.id, id).toBe(id);
    const told = (await s.eventsAfter(0, 100)).map((e) => (e.payload as { id: string }).id);
    expect(told.sort()).toEqual([...acknowledged].sort());
    expect(await s.getQuestion('q-refused')).toBeUndefined();
    // The refused write's client is not told it was kept.
    expect(byId['q-refused'].acknowledged).not.toBe(true);
    // Its group is not kept, so neither is anything of it; the unit whose statement carried the write is told why, not
    // handed the other's error as its own.
    expect(acknowledged).toEqual([]);
    expect(byId['q-after'].error).toMatch(/a write put off by a unit that had returned failed \(.*test_refused.*\): its group is undone/);
    // The lane goes on: the next request is kept.
    expect(await ask(hub, s, 'q-next', false)).toEqual({ id: 'q-next', acknowledged: true });
    expect((await s.getQuestion('q-next'))?.id).toBe('q-next');
    }));

  it("[D5][R1][R3] that fails on its own unit's next statement fails that unit only: the others of its group are kept", () =>
    withHub(async (hub, s) => {
    const outcomes = await Promise.all([ask(hub, s, 'q-0', true), ask(hub, s, 'q-refused', true, 'readBack'), ask(hub, s, 'q-after', false)]);
    expect(outcomes).toEqual([
      { id: 'q-0', acknowledged: true },
      { id: 'q-refused', error: expect.stringMatching(/test_refused/) },
      { id: 'q-after', acknowledged: true },
    ]);
    expect((await s.listQuestions({})).map((q) => q.id).sort()).toEqual(['q-0', 'q-after']);
    expect((await s.eventsAfter(0, 100)).map((e) => (e.payload as { id: string }).id)).toEqual(['q-0', 'q-after']);
    }));

  it('[D5][R1][R3] that fails on the commit itself (no later unit) leaves nothing of its group stored or acknowledged; the lane goes on', () =>
    withHub(async (hub, s) => {
      const outcomes = await Promise.all([ask(hub, s, 'q-0', true), ask(hub, s, 'q-refused', true)]);
      expect(outcomes).toEqual([
        { id: 'q-0', acknowledged: false },
        { id: 'q-refused', acknowledged: false },
      ]);
      expect(await s.listQuestions({})).toEqual([]);
      expect(await s.eventsAfter(0, 100)).toEqual([]);
      expect(await ask(hub, s, 'q-next', true)).toEqual({ id: 'q-next', acknowledged: true });
      expect((await s.listQuestions({})).map((q) => q.id)).toEqual(['q-next']);
    }));

  it("[D5][R1][R3] carried by a later unit's nested transaction that the unit gets over is still not acknowledged: the group cannot commit without it", () =>
    withHub(async (hub, s) => {
      const outcomes = await Promise.all([ask(hub, s, 'q-0', true), ask(hub, s, 'q-refused', true), ask(hub, s, 'q-c', false, 'swallow'), ask(hub, s, 'q-d', false)]);
      expect(outcomes.filter((o) => o.acknowledged)).toEqual([]);
      expect(await s.listQuestions({})).toEqual([]);
      expect(await s.eventsAfter(0, 100)).toEqual([]);
      expect(await ask(hub, s, 'q-next', false)).toEqual({ id: 'q-next', acknowledged: true });
    }));

  it("[L1][R1][R3] the ask's audit lock that fails (another gateway holds the log; the wait is cancelled) leaves no question acknowledged without its row and its entry, in its own round trip or put off to the next unit's", () =>
    withHub(async (hub, s, other) => {
      const marker = `q-${randomBytes(4).toString('hex')}`;
      // A first ask on the lane's connection prepares the audit statements there, taking the log's lock in its own unit.
      expect(await ask(hub, s, `${marker}-0`, true, 'audit')).toEqual({ id: `${marker}-0`, acknowledged: true });
      // Another gateway holds the log's lock: the next append waits for it wherever it was sent, and is cancelled there.
      await other.query(`SELECT pg_advisory_lock(hashtext('askdock.audit'))`);
      const asked = Promise.all([ask(hub, s, `${marker}-a`, true, 'audit'), ask(hub, s, `${marker}-b`, false)]);
      const waiting = async () =>
        (await other.query(`SELECT pid FROM pg_stat_activity WHERE wait_event = 'advisory' AND query LIKE '%' || $1 || '%'`, [marker])).rows as { pid: number }[];
      await expect.poll(async () => (await waiting()).length, { timeout: 20_000 }).toBe(1);
      await other.query(`SELECT pg_cancel_backend($1)`, [(await waiting())[0].pid]);
      const outcomes = await asked;
      await other.query(`SELECT pg_advisory_unlock(hashtext('askdock.audit'))`);

      // One of them failed; whatever a client was told was kept is stored with its event and, for an ask, its entry.
      expect(outcomes.filter((o) => o.acknowledged).length).toBeLessThan(2);
      const acknowledged = [`${marker}-0`, ...outcomes.filter((o) => o.acknowledged).map((o) => o.id)];
      expect((await s.listQuestions({})).map((q) => q.id).sort()).toEqual([...acknowledged].sort());
      expect((await s.eventsAfter(0, 100)).map((e) => (e.payload as { id: string }).id).sort()).toEqual([...acknowledged].sort());
      const entries = (await s.auditLines(0, 100)).map((l) => (JSON.parse(l.line) as { questionId: string }).questionId);
      expect(entries).toEqual(acknowledged.filter((id) => id !== `${marker}-b`));
      // And the log goes on, its indexes without a gap.
      expect(await ask(hub, s, `${marker}-c`, true, 'audit')).toEqual({ id: `${marker}-c`, acknowledged: true });
      expect((await s.auditLines(0, 100)).map((l) => l.index)).toEqual(entries.map((_, i) => i).concat(entries.length));
    }));
});
