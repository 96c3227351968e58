import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../protocol/index.ts';
import { waitingOnLocks } from '../../../testing/postgres.ts';
import { dump, event, message, question, seed, sessionRow, writeEverything, type Harness } from './contract-fixtures.ts';
import { expectEveryAckedWrite, groupSeenOnlyAfterCommit, runChildAndKill } from './durability-checks.ts';
import { migratesAnOlderSchema, olderPostgresSchema } from './older-schema.ts';
import type { SharedStore } from '../postgres/store.ts';
import type { Store } from '../types.ts';

/** What only a PostgreSQL server can show (D1, D2); run by store.contract.test.ts, which makes the schemas. */
export function postgresOnServerContract(makeHarness: () => Promise<Harness & { url: string }>): void {
  describe('postgres store on a server', () => {
    let harness: Harness & { url: string };
    beforeEach(async () => {
      harness = await makeHarness();
    });
    afterEach(() => harness.cleanup());

    it('[R3] keeps everything across closing and reopening', async () => {
      const first = await harness.open();
      await seed(first);
      await first.transaction(async () => writeEverything(first));
      const before = await dump(first);
      await first.close();
      const second = await harness.open();
      expect((await dump(second))).toStrictEqual(before);
      await second.close();
    });

    it("[D2] another gateway's connection sees a group's writes only once commitGroup returned", () => groupSeenOnlyAfterCommit(harness));

    it('[S5][K1] an older database learns who asked each question and each secret its owner when it is migrated', async () =>
      (await migratesAnOlderSchema(harness, () => olderPostgresSchema(harness.url))));

    it('[D1] refuses a database written by a newer schema version', async () => {
      (await harness.open()).close();
      const raw = new pg.Client({ connectionString: harness.url });
      await raw.connect();
      await raw.query(`UPDATE askdock_schema SET version = version + 1`);
      await raw.end();
      await expect(async () => harness.open()).rejects.toThrow(/schema version/);
    });

    it('[R3] keeps every acknowledged write after SIGKILL', { timeout: 60_000 }, async () => {
      const result = await runChildAndKill(harness.url, 50);
      expect(result.signal, `child exited ${result.code} before the kill: ${result.stderr}`).toBe('SIGKILL');
      expect(result.acked.length).toBeGreaterThanOrEqual(50);
      await expectEveryAckedWrite(await harness.open(), result.acked);
    });

    it('[D2] two connections racing to resolve one question: the database lets exactly one of them win, every time', async () => {
      const a = await harness.open();
      const b = await harness.open();
      try {
        await a.createSession(sessionRow('s1', 1_000));
        // As the gateway resolves (questions.ts): read the record inside the writing transaction, end it only if pending.
        const resolve = (store: Store, id: string, by: string) =>
          store.transaction(async () => {
            const q = await store.getQuestion(id);
            if (!q || q.status !== 'pending') return false;
            await store.updateQuestion({ ...q, status: 'answered', answers: { pick: ['A'] }, resolvedBy: { identity: by, surface: 'cli', atMs: 2_000 } });
            await store.appendEvent(event(2_000, { event: 'question.resolved', payload: { id, by } }));
            return true;
          });
        for (let i = 0; i < 20; i++) {
          const id = `q-race-${i}`;
          await a.insertQuestion(question(id));
          const wins = await Promise.all([resolve(a, id, 'a'), resolve(b, id, 'b')]);
          expect(wins.filter(Boolean), `question ${id}`).toHaveLength(1);
          const winner = wins[0] ? 'a' : 'b';
          expect((await b.getQuestion(id))?.resolvedBy?.identity).toBe(winner);
        }
        const resolved = (await a.eventsAfter(0, 100)).filter((e) => e.event === 'question.resolved');
        expect(resolved).toHaveLength(20);
        expect(resolved.map((e) => e.seq)).toEqual(resolved.map((_, i) => resolved[0].seq + i));
      } finally {
        await a.close();
        await b.close();
      }
    });

    it("[D2][C2] a message written in a transaction takes its chat event's seq at commit: in history, in replay, for its idempotency key", async () => {
      const a = (await harness.open()) as SharedStore;
      try {
        await a.createSession(sessionRow('s1', 1_000));
        await a.appendEvent(event(1_000));
        const provisional = await a.transaction(async () => {
          const seq = a.reserveSeq()!;
          const m = message('m-1', 's1', seq);
          await a.insertMessage(m);
          expect(await a.appendEvent(event(2_000, { payload: { sessionKey: 's1', message: m, state: 'final' } }))).toBe(seq);
          await a.putIdempotent('op', 'k1', { messageId: 'm-1', seq }, 2_000);
          return seq;
        });
        expect(provisional).toBeLessThan(0);
        expect(a.reserveSeq()).toBeNull();
        expect(a.settledSeq(provisional)).toBe(2);
        expect((await a.history('s1', 10)).messages.map((m) => [m.id, m.seq])).toEqual([['m-1', 2]]);
        const [chat] = await a.eventsAfter(1, 10);
        expect([chat.seq, (chat.payload as { message: ChatMessage }).message.seq]).toEqual([2, 2]);
        expect(await a.getIdempotent('op', 'k1')).toEqual({ messageId: 'm-1', seq: 2 });
      } finally {
        await a.close();
      }
    });

    it('[D2][A1] two gateways that read a missing setting and set it in one transaction take turns: both end with the first value', async () => {
      const a = await harness.open();
      const b = await harness.open();
      try {
        for (let i = 0; i < 10; i++) {
          const key = `first-${i}`;
          const firstOr = (store: Store, mine: string) =>
            store.transaction(async () => {
              const saved = await store.getMeta(key);
              if (saved === undefined) await store.setMeta(key, mine);
              return saved ?? mine;
            });
          const [x, y] = await Promise.all([firstOr(a, 'a'), firstOr(b, 'b')]);
          expect(x, key).toBe(y);
          expect(await a.getMeta(key)).toBe(x);
        }
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('[D2] a session read inside a transaction is locked until it commits: its session waits, another session does not', async () => {
      const a = await harness.open();
      const b = await harness.open();
      try {
        await a.createSession(sessionRow('s1', 1_000));
        await a.createSession(sessionRow('s2', 1_000));
        let release!: () => void;
        const held = new Promise<void>((ok) => (release = ok));
        let aRead!: () => void;
        const aHasIt = new Promise<void>((ok) => (aRead = ok));
        const aDone = a.transaction(async () => {
          await a.getSession('s1');
          aRead();
          await held;
          await a.touchSession('s1', 5_000);
        });
        await aHasIt;
        // Another session is written at once; the held one waits for A's commit and then reads what A wrote.
        await b.transaction(async () => await b.touchSession('s2', 6_000));
        let bSaw: number | null | undefined;
        const bDone = b.transaction(async () => (bSaw = (await b.getSession('s1'))?.lastMessageAtMs));
        // B's read is seen waiting for A's lock.
        await expect.poll(() => waitingOnLocks(harness.url, 'sessions')).toBe(1);
        expect(bSaw).toBeUndefined();
        release();
        await aDone;
        await bDone;
        expect(bSaw).toBe(5_000);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('[D2][R2] two connections writing at once: neither waits for the other, and a reader never sees a seq before every smaller one is committed', async () => {
      const a = (await harness.open()) as SharedStore;
      const b = await harness.open();
      const reader = await harness.open();
      try {
        // A's group holds an event, numbered only when A commits; B writes and commits meanwhile without waiting for A.
        await a.beginGroup();
        const provisional = await a.transaction(() => a.appendEvent(event(1_000)));
        expect(provisional).toBeLessThan(0);
        expect(await b.transaction(() => b.appendEvent(event(2_000)))).toBeLessThan(0);
        expect((await reader.eventsAfter(0, 10)).map((e) => [e.seq, e.atMs])).toEqual([[1, 2_000]]);
        await a.commitGroup();
        expect(a.settledSeq(provisional)).toBe(2);
        expect((await reader.eventsAfter(0, 10)).map((e) => [e.seq, e.atMs])).toEqual([
          [1, 2_000],
          [2, 1_000],
        ]);
        // Many writers at once, read while they write: every read is a gapless run from the first seq on.
        const writers = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).transaction(() => (i % 2 ? a : b).appendEvent(event(3_000 + i))));
        let all = Promise.all(writers).then(() => undefined);
        let finished = false;
        all = all.finally(() => (finished = true));
        while (!finished) {
          const seen = (await reader.eventsAfter(0, 100)).map((e) => e.seq);
          expect(seen).toEqual(seen.map((_, i) => i + 1));
        }
        await all;
        expect((await reader.eventsAfter(0, 100)).map((e) => e.seq)).toEqual(Array.from({ length: 42 }, (_, i) => i + 1));
        expect(await reader.latestSeq()).toBe(42);
      } finally {
        await a.close();
        await b.close();
        await reader.close();
      }
    });
  });
}
