import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { CloseCode } from '../../protocol/index.ts';
import { item, startTestGateway, tokenOf, type TestGateway } from '../../testing/gateway-harness.ts';
import { postgresStorePerTest } from '../../testing/postgres-store-per-test.ts';

const postgres = postgresStorePerTest();
let gw: TestGateway | undefined;
// Runs before the schema is dropped (after-hooks run as a stack).
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

const NUL = 'must not contain the NUL character (U+0000)';

async function gatewayOn(store: 'sqlite' | 'postgres'): Promise<TestGateway> {
  gw = await startTestGateway(store === 'postgres' ? { dbPath: await postgres.schema('nul') } : {});
  return gw;
}

describe.each(['sqlite', 'postgres'] as const)('U+0000 in a frame (%s store)', (store) => {
  it('[P3] every method refuses a NUL in any text with INVALID_REQUEST naming the field; the socket stays usable', { timeout: 60_000 }, async () => {
    const g = await gatewayOn(store);
    const refused = await (await g.open()).connect(tokenOf('admin'), { clientId: 'tab\u0000one' });
    expect(refused.error).toMatchObject({ code: 'INVALID_REQUEST', details: [{ path: 'client.id', problem: NUL }] });

    const admin = await g.connect('admin');
    const agent = await g.connect('agent');
    const title = await admin.request('sessions.create', { title: 'a\u0000b' });
    expect(title.error).toMatchObject({ code: 'INVALID_REQUEST', details: [{ path: 'title', problem: NUL }] });
    const { session } = await admin.call('sessions.create', { title: 'Plain' });
    const sent = await admin.request('chat.send', { sessionKey: session.key, message: 'x\u0000', idempotencyKey: 'nul-text-0001' });
    expect(sent.error?.message).toBe(`invalid chat.send: message: ${NUL}`);
    const asked = await agent.request('question.request', { sessionKey: session.key, questions: [item(), item({ id: 'two', question: 'Q\u0000?' })] });
    expect(asked.error).toMatchObject({ code: 'INVALID_REQUEST', details: [{ path: 'questions[1].question', problem: NUL }] });

    // Nothing was stored, and a backslash typed before "u0000" is ordinary text.
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    const answered = await admin.request('question.resolve', { id, answers: { [item().id]: ['free \u0000 text'] } });
    expect(answered.error).toMatchObject({ code: 'INVALID_REQUEST', details: [{ path: `answers.${item().id}[0]`, problem: NUL }] });
    await admin.call('chat.send', { sessionKey: session.key, message: 'path C:\\u0000', idempotencyKey: 'nul-text-0002' });
    const { messages } = await admin.call('chat.history', { sessionKey: session.key });
    expect(messages.map((m) => m.text)).toEqual(['path C:\\u0000']);
    const { sessions } = await admin.call('sessions.list', {});
    expect(sessions.map((s) => s.title)).toEqual(['Plain']);
  });
});

describe('U+0000 before and around the handshake', () => {
  it('[P4] a first request other than connect is UNAUTHORIZED and closes with 4001, NUL or not; a token with NUL is a bad token', async () => {
    const g = await gatewayOn('sqlite');
    const first = await g.open();
    const res = await first.request('sessions.list', { x: 'a\u0000b' });
    expect(res.error?.code).toBe('UNAUTHORIZED');
    expect((await first.waitClose()).code).toBe(CloseCode.unauthorized);
    const badToken = await g.open();
    const refused = await badToken.connect(`${tokenOf('admin')}\u0000`);
    expect(refused.error?.code).toBe('UNAUTHORIZED');
    expect((await badToken.waitClose()).code).toBe(CloseCode.unauthorized);
  });

  it('[P3] once connected, an unknown method is METHOD_NOT_FOUND even with a NUL in its params', async () => {
    const g = await gatewayOn('sqlite');
    const admin = await g.connect('admin');
    const res = await admin.request('no.such.method', { x: 'a\u0000b' });
    expect(res.error).toMatchObject({ code: 'METHOD_NOT_FOUND', details: { method: 'no.such.method' } });
  });
});

describe('a store failure while admitting a connection', () => {
  it('[P4] answers the connect with UNAVAILABLE and closes with 1011 instead of leaving it unanswered', { timeout: 60_000 }, async () => {
    const g = await gatewayOn('postgres');
    const db = new pg.Client({ connectionString: await postgres.schema('nul') });
    await db.connect();
    await db.query('DROP TABLE presence');
    await db.end();
    const c = await g.open();
    const res = await c.connect(tokenOf('admin'));
    expect(res.ok).toBe(false);
    expect(res.error?.code).toBe('UNAVAILABLE');
    expect(res.error?.message).toMatch(/^internal error in connect: .*presence/);
    expect((await c.waitClose()).code).toBe(CloseCode.internal);
    // The failure was logged as one, and is expected here.
    expect(g.logs.filter((l) => /connect failed/.test(l))).toHaveLength(1);
    g.logs.length = 0;
  });
});
