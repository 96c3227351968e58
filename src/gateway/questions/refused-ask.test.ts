import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../audit/index.ts';
import { failure, item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { freshSchema } from '../../testing/postgres.ts';
import type { GatewayOptions } from '../gateway-options.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

/** A gateway on each engine; the ask's audit entry leaves with its reads, before the checks that may refuse it. */
const engines: Record<string, (opts: GatewayOptions) => Promise<TestGateway>> = {
  memory: (opts) => startTestGateway({ ...opts, memory: true }),
  sqlite: (opts) => startTestGateway(opts),
  postgres: async (opts) => {
    const schema = await freshSchema('refused');
    cleanups.push(() => schema.drop());
    return startTestGateway({ ...opts, dbPath: schema.url });
  },
};

async function open(engine: string, opts: GatewayOptions = {}) {
  const t = await engines[engine](opts);
  cleanups.push(() => t.close());
  const agent = await t.connect('agent');
  const admin = await t.connect('admin');
  const { session } = await admin.call('sessions.create', { title: 'Refused asks' });
  const log = async () => (await t.gw.store.auditLines(0, 1_000)).map((r) => ({ index: r.index, entry: JSON.parse(r.line) as AuditEntry }));
  const questions = async () => (await admin.call('question.list', {})).questions.map((q) => q.id).sort();
  return { t, agent, admin, session, log, questions };
}

describe.each(Object.keys(engines))('%s', (engine) => {
  it('[L1][Q11] an ask refused for its session\'s pending question leaves no audit entry and no question; the log\'s indexes go on without a gap', { timeout: 120_000 }, async () => {
    const { agent, session, log, questions } = await open(engine);
    const first = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    // Refused one by one, and several at once (on PostgreSQL units of one commit group, each undone to its own savepoint).
    const refused = [await failure(agent.call('question.request', { id: 'refused-0', sessionKey: session.key, questions: [item()] }))];
    refused.push(...(await Promise.all([1, 2, 3].map((n) => failure(agent.call('question.request', { id: `refused-${n}`, sessionKey: session.key, questions: [item()] }))))));
    expect(refused.map((e) => e.code)).toEqual(Array(4).fill('QUESTION_PENDING'));
    const later = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [item()] });
    expect(await questions()).toEqual([first.id, later.id].sort());
    const entries = await log();
    expect(entries.map((e) => e.index)).toEqual(entries.map((_, i) => i));
    const asked = entries.filter((e) => e.entry.event === 'question.asked').map((e) => e.entry.questionId);
    expect(asked).toEqual([first.id, later.id]);
  });

  it('[L1] an ask refused by the asker\'s limit of pending questions (RATE_LIMITED) leaves no audit entry and no question', { timeout: 120_000 }, async () => {
    const { agent, log, questions } = await open(engine, { maxPendingQuestions: 1 });
    const first = await agent.call('question.request', { mode: 'async', questions: [item()] });
    const err = await failure(agent.call('question.request', { id: 'over-limit', mode: 'async', questions: [item()] }));
    expect(err.code).toBe('RATE_LIMITED');
    expect(await questions()).toEqual([first.id]);
    expect((await log()).filter((e) => e.entry.questionId === 'over-limit')).toEqual([]);
    // The asker's answer frees its place: the next ask is kept, with its entry.
    await agent.call('question.resolve', { id: first.id, cancel: true });
    const next = await agent.call('question.request', { id: 'after-limit', mode: 'async', questions: [item()] });
    expect((await log()).filter((e) => e.entry.event === 'question.asked').map((e) => e.entry.questionId)).toEqual([first.id, next.id]);
  });
});
