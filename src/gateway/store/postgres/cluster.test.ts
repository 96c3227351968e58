import { expect, it } from 'vitest';
import { freshSchema, type TestSchema } from '../../../testing/postgres.ts';
import type { ToldCommit } from '../types.ts';
import { openPostgresStore, type SharedStore } from './store.ts';

/** Two gateways' stores on a fresh schema, closed (and the schema dropped) once `fn` ends. */
async function twoStores(fn: (committing: SharedStore, hearing: SharedStore) => Promise<void>): Promise<void> {
  const schema: TestSchema = await freshSchema('toldparts');
  const committing = await openPostgresStore(schema.url);
  const hearing = await openPostgresStore(schema.url);
  try {
    await fn(committing, hearing);
  } finally {
    await committing.close();
    await hearing.close();
    await schema.drop();
  }
}

it("[D2] each notification of a commit told in several names the seqs it tells, from its first to its last (a part after the first does not claim the commit's first)", { timeout: 60_000 }, () =>
  twoStores(async (committing, hearing) => {
    const heard: { seq: number; told: ToldCommit }[] = [];
    hearing.onCommitted((seq, told) => {
      if (seq !== null && told) heard.push({ seq, told });
    });
    // Hearing only once LISTEN is up: a probe commit is heard first.
    const probe = { event: 'question.retired' as const, payload: { id: 'probe' }, audience: { sessionKey: null }, atMs: 1 };
    await expect
      .poll(async () => (await committing.lane(0).transaction(() => committing.appendEvent(probe)), heard.length), { timeout: 20_000 })
      .toBeGreaterThan(0);
    const before = await committing.latestSeq();
    // Twenty events of about 1,500 bytes (some in multibyte text): some 30,000 bytes, told in four or more notifications.
    await committing.lane(0).transaction(async () => {
      for (let i = 0; i < 20; i++)
        await committing.appendEvent({ event: 'question.retired', payload: { id: `q-${i}-${'é'.repeat(700)}` }, audience: { sessionKey: null }, atMs: 2 });
    });
    await expect.poll(() => heard.at(-1)?.seq, { timeout: 20_000 }).toBe(before + 20);
    // (A probe's notification may still come in meanwhile.)
    const parts = heard.filter((h) => h.seq > before);
    expect(parts.length).toBeGreaterThan(3);
    let next = before + 1;
    for (const { seq, told } of parts) {
      const seqs = told.events()!.map((t) => t.ev.seq);
      expect(seqs).toEqual(Array.from({ length: seq - next + 1 }, (_, i) => next + i));
      expect(told.first).toBe(next);
      next = seq + 1;
    }
  }));
