import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { realClock } from '../infra/clock.ts';
import { memoryLogger } from '../infra/logger.ts';
import { freshSchema } from '../../testing/postgres.ts';
import { questionRecord } from '../../testing/question-record.ts';
import { openPostgresStore } from '../store/postgres/store.ts';
import type { SharedStore } from '../store/postgres/cluster.ts';
import type { StoredQuestion } from '../store/types.ts';
import { EventHub, RequestScope, laneOf } from './hub.ts';
import type { Tx } from './units.ts';
import { Turn } from './turn.ts';

const question = (id: string): StoredQuestion => questionRecord({ id, sessionKey: 's1', createdAtMs: 1_000, expiresAtMs: 901_000 });

const session = (key: string) => ({ key, title: key, createdBy: 'op', agentId: null, createdAtMs: 1_000, lastMessageAtMs: null });

/**
 * Runs `fn` with a hub on a fresh store holding the sessions `keys`, whose questions table refuses the id `q-refused`
 * (a constraint no insert sees coming: put off, it fails at the commit and the group is rolled back).
 */
async function withHub(keys: string[], fn: (hub: EventHub, s: SharedStore) => Promise<void>): Promise<void> {
  const schema = await freshSchema('lostgroup');
  const s = await openPostgresStore(schema.url);
  const admin = new pg.Client({ connectionString: schema.url });
  try {
    for (const key of keys) await s.createSession(session(key));
    await admin.connect();
    await admin.query(`ALTER TABLE questions ADD CONSTRAINT test_refused CHECK (id <> 'q-refused')`);
    await fn(new EventHub({ store: s, clock: realClock, view: (_v, _e, shared) => shared(), checkPayloads: false, log: memoryLogger().log, turn: new Turn(), onRollback: () => {} }), s);
  } finally {
    await admin.end();
    await s.close();
    await schema.drop();
  }
}

/** `groups`: how many groups its answer waited for. */
type Outcome = { id: string; error?: string; acknowledged?: boolean; groups?: number };

/** One request running one unit in session s1's lane; acknowledged when it returned and whenDurable said kept (R3). */
function request(hub: EventHub, id: string, unit: (tx: Tx) => Promise<void>): Promise<Outcome> {
  const scope = new RequestScope();
  return hub.request(scope, () => Promise.resolve(), () => hub.commit(unit, 's1')).then(
    () => {
      scope.finish();
      return new Promise<Outcome>((ok) => hub.whenDurable((acknowledged) => ok({ id, acknowledged, groups: scope.groups.size }), scope));
    },
    (err: unknown) => ({ id, error: String(err) }),
  );
}

describe('D5 a unit the database undid to break a deadlock, run again in the next group', () => {
  it('[D5][R3] is acknowledged when its second run is kept, though the group of its first run was rolled back (a client told otherwise would ask again: a second question)', () =>
    withHub(['s1'], async (hub, s) => {
      // The first run's group cannot commit: one of its questions is refused by the constraint, at the commit.
      const insert = (id: string, idIsNew: boolean) => async (tx: Tx) => {
        await s.insertQuestion(question(id), undefined, idIsNew);
        await tx.emit('question.retired', { id }, { sessionKey: 's1' });
      };
      let runs = 0;
      const deadlocked = Object.assign(new Error('deadlock detected'), { code: '40P01' });
      const outcomes = await Promise.all([
        request(hub, 'q-again', async (tx) => {
          if (++runs === 1) throw deadlocked;
          await insert('q-again', false)(tx);
        }),
        // The same group: the first insert prepares its statement, the refused one is put off and carried by the commit.
        request(hub, 'q-0', insert('q-0', true)),
        request(hub, 'q-refused', insert('q-refused', true)),
      ]);
      expect(runs).toBe(2);
      const stored = (await s.listQuestions({})).map((q) => q.id);
      expect(stored).toEqual(['q-again']);
      // Whatever is stored was acknowledged, and nothing else was; the second run's answer waited for its own group.
      expect(outcomes).toEqual([
        { id: 'q-again', acknowledged: true, groups: 1 },
        { id: 'q-0', acknowledged: false, groups: 1 },
        { id: 'q-refused', acknowledged: false, groups: 1 },
      ]);
    }));
});

describe('D5 the seq a request reads back once its unit committed (chat.send)', () => {
  it("[D5][R3][C2] is given when its own group is kept, though another lane's group open meanwhile is rolled back", () =>
    withHub([], async (hub, s) => {
      // Two sessions in different lanes.
      const a = 'session-a';
      let b = 'session-b0';
      for (let i = 1; laneOf(b, s.lanes) === laneOf(a, s.lanes); i++) b = `session-b${i}`;
      await s.createSession(session(a));
      await s.createSession(session(b));

      // Session b's lane: a unit that stays open until the request below waits for its seq, then writes a question the
      // database refuses at the commit (put off: the first insert prepared the statement), so that group is rolled back.
      let release!: () => void;
      const gate = new Promise<void>((ok) => (release = ok));
      const other = hub.commit(async () => {
        await gate;
        await s.insertQuestion({ ...questionRecord({ id: 'q-b' }), sessionKey: b }, undefined, true);
        await s.insertQuestion({ ...questionRecord({ id: 'q-refused' }), sessionKey: b }, undefined, true);
      }, b);

      // A request in session a's lane, as chat.send: a unit, then the seq its event got at the commit.
      const scope = new RequestScope();
      const answer = hub.request(scope, () => Promise.resolve(), async () => {
        const seq = await hub.commit((tx) => tx.emit('session.updated', { session: { ...session(a), pendingQuestions: 0 } }, { sessionKey: a }), a);
        const settled = hub.settledSeq(seq);
        release();
        return await settled;
      });
      const [seq] = await Promise.all([answer.then((n) => ({ seq: n }), (err: unknown) => ({ error: String(err) })), other]);
      scope.finish();
      const acknowledged = await new Promise<boolean>((ok) => hub.whenDurable(ok, scope));

      // Session b's group was rolled back; session a's event is stored, and the request is told its seq.
      expect(await s.listQuestions({})).toEqual([]);
      const stored = await s.eventsAfter(0, 100);
      expect(stored.map((e) => e.event)).toEqual(['session.updated']);
      expect({ seq, acknowledged }).toEqual({ seq: { seq: stored[0].seq }, acknowledged: true });
    }));
});
