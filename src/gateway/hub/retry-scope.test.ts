import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { realClock } from '../infra/clock.ts';
import { memoryLogger } from '../infra/logger.ts';
import { freshSchema } from '../../testing/postgres.ts';
import { questionRecord } from '../../testing/question-record.ts';
import { openPostgresStore } from '../store/postgres/store.ts';
import type { SharedStore } from '../store/postgres/cluster.ts';
import type { StoredQuestion } from '../store/types.ts';
import { EventHub, RequestScope } from './hub.ts';
import type { Tx } from './units.ts';
import { Turn } from './turn.ts';

const question = (id: string): StoredQuestion => questionRecord({ id, sessionKey: 's1', createdAtMs: 1_000, expiresAtMs: 901_000 });

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
  it('[D5][R3] is acknowledged when its second run is kept, though the group of its first run was rolled back (a client told otherwise would ask again: a second question)', async () => {
    const schema = await freshSchema('retryscope');
    const s: SharedStore = await openPostgresStore(schema.url);
    const admin = new pg.Client({ connectionString: schema.url });
    try {
      await s.createSession({ key: 's1', title: 's1', createdBy: 'op', agentId: null, createdAtMs: 1_000, lastMessageAtMs: null });
      await admin.connect();
      // The first run's group cannot commit: one of its questions is refused by a constraint, at the commit.
      await admin.query(`ALTER TABLE questions ADD CONSTRAINT test_refused CHECK (id <> 'q-refused')`);
      const hub = new EventHub({ store: s, clock: realClock, view: (_v, _e, shared) => shared(), checkPayloads: false, log: memoryLogger().log, turn: new Turn(), onRollback: () => {} });
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
    } finally {
      await admin.end();
      await s.close();
      await schema.drop();
    }
  });
});
