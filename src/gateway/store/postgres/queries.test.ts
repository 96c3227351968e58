import { createHook } from 'node:async_hooks';
import { ContextSlot } from '../../infra/context.ts';
import { describe, expect, it } from 'vitest';
import { testPostgresUrl } from '../../../testing/postgres.ts';
import { SeqRange } from './numbering.ts';
import { Postgres } from './pool.ts';
import { pgQueries } from './queries.ts';
import { Transactions } from './transactions.ts';

describe('[D5] a statement inside a transaction', () => {
  it('[D5] is answered through its own promise: no async steps around it, each a promise more for every AsyncLocalStorage to see', async () => {
    const db = new Postgres(testPostgresUrl(), null);
    const t = new Transactions(db, null, new SeqRange());
    const { q } = pgQueries(db, [t], new ContextSlot('unwaited'));
    /** The promises made by a unit that reads `reads` times, one read after another. */
    const promisesOf = async (reads: number): Promise<number> => {
      let made = 0;
      const hook = createHook({
        init(_id, type) {
          if (type === 'PROMISE') made++;
        },
      }).enable();
      try {
        const got = await t.transaction(async () => {
          const n: unknown[] = [];
          for (let i = 0; i < reads; i++) n.push((await q('SELECT $1::int AS n', [i])).rows[0].n);
          return n;
        });
        expect(got).toEqual(Array.from({ length: reads }, (_, i) => i));
      } finally {
        hook.disable();
      }
      return made;
    };
    try {
      await t.beginGroup();
      await promisesOf(1);
      const perRead = ((await promisesOf(9)) - (await promisesOf(1))) / 8;
      // The read's own (the unit's await, the statement's gathering, pg's query and its send): 10 with pool.ts `query`
      // and queries.ts `q` async around it.
      expect(perRead).toBeLessThanOrEqual(6);
      await t.commitGroup();
    } finally {
      await db.close();
    }
  });
});
