import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { StoredQuestion } from '../store/types.ts';
import { addRoutedCopies, countingStore } from '../../testing/counting-store.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { connectPerson, routingConfig } from '../../testing/routing-gateway.ts';

const MIN = 60_000;
const stores = {
  memory: () => ({ store: createMemoryStore(), done: () => undefined }),
  sqlite: () => {
    const dir = mkdtempSync(join(tmpdir(), 'askdock-route-duty-'));
    const store = openSqliteStore(join(dir, 'askdock.db'));
    return { store, done: () => rmSync(dir, { recursive: true, force: true }) };
  },
};

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

/**
 * One routed question whose first step comes due, beside `waiting - 1` others that wait an hour more: the question
 * records the gateway reads while that step runs.
 */
async function examinedForOneStep(kind: keyof typeof stores, waiting: number): Promise<number> {
  const clock = new FakeClock();
  const { store: inner, done } = stores[kind]();
  const count = countingStore(inner);
  const t: TestGateway = await startTestGateway({ config: routingConfig, clock, store: count.store });
  cleanup.push(done, () => inner.close(), () => t.close());
  const admin = await t.connect('admin');
  const agent = await t.connect('agent');
  const ana = await connectPerson(t, 'ana');
  const { session } = await admin.call('sessions.create', { title: 'Many waiting' });
  const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()], mode: 'async', timeoutMs: 3_600_000 });
  const asked = (await inner.getQuestion(id)) as StoredQuestion;
  await addRoutedCopies(inner, asked, waiting, () => asked.createdAtMs + 65 * MIN);
  expect(await inner.listQuestions({ status: 'pending' })).toHaveLength(waiting);
  count.reset();
  clock.advance(5 * MIN);
  const routed = await ana.waitEvent('question.routed', (p) => p.id === id);
  expect(routed.route).toMatchObject({ step: 1, notified: ['ana', 'bo', 'cy'] });
  return count.examined();
}

describe('the escalation duty reads due steps by their deadline (E2, E11)', () => {
  for (const kind of Object.keys(stores) as (keyof typeof stores)[]) {
    it(`[E2][E11] ${kind}: running one due step reads the same question records with 1 and with 1,000 questions waiting`, { timeout: 120_000 }, async () => {
      const alone = await examinedForOneStep(kind, 1);
      const many = await examinedForOneStep(kind, 1000);
      expect(alone).toBeLessThanOrEqual(2);
      expect(many).toBe(alone);
    });
  }
});
