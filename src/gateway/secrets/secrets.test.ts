import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../config.ts';
import { ErrorDetails } from '../../protocol/errors.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { failure, startTestGateway, testConfig, type TestGateway } from '../../testing/gateway-harness.ts';
import { roundTrips } from '../../testing/barrier.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// The agent may read secrets (agent.secrets); `agent2` may not.
const config: GatewayConfig = {
  identities: testConfig.identities.map((i) => (i.id === 'agent' ? { ...i, scopes: ['agent.run', 'agent.secrets'] } : i)),
};
const VALUE = 'sk-proj-UNIQUEvalue7Qx92LmZp4Rt8Wn3Ks6Hd0';

async function setup(over: Parameters<typeof startTestGateway>[0] = {}) {
  t = await startTestGateway({ config, ...over });
  const admin = await t.connect('admin');
  const agent = await t.connect('agent');
  const { session } = await admin.call('sessions.create', {});
  return { tg: t, admin, agent, sessionKey: session.key };
}

describe('K1 secrets', () => {
  it('[K1] secret.request -> secret.requested (no value) -> secret.provide -> waitResult stored -> secret.get returns the value', async () => {
    const { admin, agent, sessionKey } = await setup();
    const { runId } = await agent.call('run.start', { sessionKey });
    const { id, expiresAtMs } = await agent.call('secret.request', { name: 'OPENAI_API_KEY', description: 'To call the API', runId });
    expect(id).toBeTruthy();
    expect(expiresAtMs).toBeGreaterThan(Date.now() - 1000);
    const requested = await admin.waitEvent('secret.requested', (e) => e.request.id === id);
    expect(requested.request).toMatchObject({ id, name: 'OPENAI_API_KEY', description: 'To call the API', sessionKey, runId, askedBy: 'agent', status: 'pending' });
    const waiting = agent.call('secret.waitResult', { id });
    expect(await admin.call('secret.provide', { id, value: VALUE })).toEqual({ status: 'stored', name: 'OPENAI_API_KEY' });
    expect(await waiting).toEqual({ status: 'stored', name: 'OPENAI_API_KEY' });
    expect(await agent.call('secret.get', { name: 'OPENAI_API_KEY' })).toEqual({ value: VALUE });
    const resolved = await admin.waitEvent('secret.resolved', (e) => e.id === id);
    expect(resolved).toMatchObject({ id, sessionKey, name: 'OPENAI_API_KEY', status: 'stored' });
    // E7: who provided it and where (the connection's surface), never the value.
    expect(Object.keys(resolved).sort()).toEqual(['id', 'name', 'resolvedBy', 'seq', 'sessionKey', 'status']);
    expect(resolved.resolvedBy).toEqual({ identity: 'admin', surface: 'cli', atMs: expect.any(Number) });
    expect(JSON.stringify(resolved)).not.toContain(VALUE);
  });

  it('[K1] skip answers skipped; a second provide answers QUESTION_ALREADY_TERMINAL', async () => {
    const { admin, agent } = await setup();
    const { id } = await agent.call('secret.request', { name: 'TOKEN', description: 'x' });
    expect(await admin.call('secret.provide', { id, skip: true })).toEqual({ status: 'skipped', name: 'TOKEN' });
    expect(await agent.call('secret.waitResult', { id })).toEqual({ status: 'skipped', name: 'TOKEN' });
    const late = await failure(admin.call('secret.provide', { id, value: 'late' }));
    expect(late.code).toBe('QUESTION_ALREADY_TERMINAL');
    // Its details pass the protocol's own schema (the gateway checks every refusal it sends against it).
    expect(late.details).toEqual({ id, status: 'skipped', name: 'TOKEN' });
    expect(ErrorDetails.QUESTION_ALREADY_TERMINAL.safeParse(late.details).success).toBe(true);
    expect((await failure(agent.call('secret.get', { name: 'TOKEN' }))).code).toBe('SECRET_NOT_FOUND');
  });

  it('[K1] bad params name the field; an invalid value error never repeats the value', async () => {
    const { admin, agent } = await setup();
    const bad = await failure(agent.call('secret.request', { name: 'lower-case', description: '' }));
    expect(bad.code).toBe('INVALID_REQUEST');
    expect((bad.details as { path: string }[]).map((d) => d.path).sort()).toEqual(['description', 'name']);
    expect((await failure(agent.call('secret.request', { name: 'A'.repeat(65), description: 'x' }))).code).toBe('INVALID_REQUEST');
    const { id } = await agent.call('secret.request', { name: 'BIG', description: 'x' });
    const tooLong = 'Z'.repeat(8001);
    const err = await failure(admin.call('secret.provide', { id, value: tooLong }));
    expect(err.details).toEqual([{ path: 'value', problem: expect.stringContaining('8000') }]);
    expect(JSON.stringify(err.toShape())).not.toContain('ZZZZZZZZ');
    expect((await failure(admin.call('secret.provide', { id, value: '' }))).code).toBe('INVALID_REQUEST');
  });

  it('[K1] a value sent with skip is refused, naming the field, and the request stays pending: neither stored nor skipped', async () => {
    const { admin, agent } = await setup();
    const { id } = await agent.call('secret.request', { name: 'BOTH', description: 'x' });
    const both = await failure(admin.call('secret.provide', { id, value: VALUE, skip: true } as never));
    expect(both.code).toBe('INVALID_REQUEST');
    expect(both.details).toEqual([{ path: 'value', problem: 'value and skip are exclusive' }]);
    expect(JSON.stringify(both.toShape())).not.toContain(VALUE);
    expect(await agent.call('secret.waitResult', { id, timeoutMs: 0 })).toEqual({ status: 'pending', name: 'BOTH' });
  });

  it('[K1] secret.get needs agent.secrets and answers SECRET_NOT_FOUND for an unknown name', async () => {
    const { agent } = await setup();
    expect((await failure(agent.call('secret.get', { name: 'MISSING' }))).code).toBe('SECRET_NOT_FOUND');
    const other = await t!.connect('agent2');
    const err = await failure(other.call('secret.get', { name: 'MISSING' }));
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toContain('agent.secrets');
  });

  it('[K1][A3][A4] a secret request is seen like a privileged question: answerers and its asker, nobody else', async () => {
    const { admin, agent } = await setup();
    const guest = await t!.connect('guest');
    const reader = await t!.connect('reader');
    const questions = await t!.connect('questions');
    const other = await t!.connect('agent2');
    const { session: own } = await guest.call('sessions.create', {});
    const { id } = await agent.call('secret.request', { name: 'GUEST_KEY', description: 'x', sessionKey: own.key });
    await questions.waitEvent('secret.requested', (e) => e.request.id === id);
    await admin.waitEvent('secret.requested', (e) => e.request.id === id);
    // It went out to every connection in one pass: a round trip on each of the others follows it.
    await roundTrips([guest, reader, other]);
    for (const c of [guest, reader, other]) expect(c.eventsNamed('secret.requested')).toEqual([]);
    expect((await guest.call('secret.list', {})).requests).toEqual([]);
    expect((await other.call('secret.list', {})).requests).toEqual([]);
    expect((await failure(reader.call('secret.list', {}))).code).toBe('FORBIDDEN');
    expect((await failure(guest.call('secret.provide', { id, value: 'x' }))).code).toBe('SECRET_NOT_FOUND');
    expect((await failure(other.call('secret.waitResult', { id }))).code).toBe('SECRET_NOT_FOUND');
    expect((await agent.call('secret.list', {})).requests.map((r) => r.id)).toEqual([id]);
    expect((await questions.call('secret.provide', { id, value: 'fine' })).status).toBe('stored');
  });

  it('[K1] hello-ok.snapshot.pendingSecrets and resume carry pending requests, so a reloaded UI shows them', async () => {
    const { admin, agent } = await setup();
    const cursor = admin.hello!.snapshot.cursor;
    const { id } = await agent.call('secret.request', { name: 'DB_PASSWORD', description: 'the staging database' });
    const fresh = await t!.connect('admin');
    expect(fresh.hello!.snapshot.pendingSecrets?.map((r) => r.id)).toEqual([id]);
    const resumed = await t!.connect('admin', { resume: { cursor } });
    expect(resumed.hello!.resumed).toBe(true);
    await resumed.waitEvent('secret.requested', (e) => e.request.id === id);
    const guest = await t!.connect('guest');
    expect(guest.hello!.snapshot.pendingSecrets).toEqual([]);
  });

  it('[K1] requests expire at expiresAtMs, and end with the asking run', async () => {
    const clock = new FakeClock();
    const { admin, agent, sessionKey } = await setup({ clock });
    const { id, expiresAtMs } = await agent.call('secret.request', { name: 'SOON', description: 'x', timeoutMs: 1000 });
    expect(expiresAtMs).toBe(clock.now() + 30_000);
    clock.advance(30_000);
    expect(await agent.call('secret.waitResult', { id })).toEqual({ status: 'expired', name: 'SOON' });
    const { runId } = await agent.call('run.start', { sessionKey });
    const second = await agent.call('secret.request', { name: 'RUNNING', description: 'x', runId });
    await agent.call('run.end', { runId, stopReason: 'end_turn' });
    expect(await agent.call('secret.waitResult', { id: second.id })).toEqual({ status: 'cancelled', name: 'RUNNING' });
    expect((await failure(admin.call('secret.provide', { id: second.id, value: 'x' }))).code).toBe('QUESTION_ALREADY_TERMINAL');
  });

  it('[K1] the asker may cancel its own request', async () => {
    const { admin, agent } = await setup();
    const { id } = await agent.call('secret.request', { name: 'CANCEL_ME', description: 'x' });
    expect(await agent.call('secret.cancel', { id })).toEqual({ status: 'cancelled', name: 'CANCEL_ME' });
    await admin.waitEvent('secret.resolved', (e) => e.id === id && e.status === 'cancelled');
  });

  it('[K1] the key file beside the database is created with mode 0600 and the value survives a restart', async () => {
    const { admin, agent, tg } = await setup();
    const keyFile = join(tg.dir, 'secrets.key');
    expect(existsSync(keyFile)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const { id } = await agent.call('secret.request', { name: 'KEPT', description: 'x' });
    await admin.call('secret.provide', { id, value: VALUE });
    const { dir, dbPath } = tg;
    await tg.close({ keepDir: true });
    t = await startTestGateway({ config, dir, dbPath });
    const again = await t.connect('agent');
    expect(await again.call('secret.get', { name: 'KEPT' })).toEqual({ value: VALUE });
  });

  it('[K1] a provided value appears in no frame, no log line, no event, no record and not in the raw SQLite bytes (db, -wal)', async () => {
    const { admin, agent, sessionKey, tg } = await setup();
    const { runId } = await agent.call('run.start', { sessionKey });
    const { id } = await agent.call('secret.request', { name: 'HIDDEN', description: 'x', runId });
    const waited = agent.call('secret.waitResult', { id });
    await admin.call('secret.provide', { id, value: VALUE });
    await waited;
    await admin.call('secret.list', {});
    await agent.call('chat.inject', { runId, text: 'Stored HIDDEN', state: 'final' });
    const late = await t!.connect('admin', { resume: { cursor: 0 } });
    await late.waitEvent('secret.resolved', (e) => e.id === id);
    const needle = 'UNIQUEvalue7Qx92';
    // Every frame any client received, except the one secret.get answer the agent asks for last.
    for (const c of tg.clients) for (const frame of c.rawFrames) expect(frame).not.toContain(needle);
    for (const line of tg.logs) expect(line).not.toContain(needle);
    const events = await tg.gw.store.eventsAfter(0, 10_000);
    expect(JSON.stringify(events)).not.toContain(needle);
    expect(JSON.stringify(await tg.gw.store.listSecretRequests({}))).not.toContain(needle);
    expect((await tg.gw.store.getSecret('agent', 'HIDDEN'))?.ciphertext).not.toContain(needle);
    for (const file of [tg.dbPath, `${tg.dbPath}-wal`]) {
      if (!existsSync(file)) continue;
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from(needle, 'utf8')), file).toBe(false);
      expect(bytes.includes(Buffer.from(needle, 'utf16le')), file).toBe(false);
    }
    expect(existsSync(tg.dbPath)).toBe(true);
    // And the agent can still read it back.
    expect((await agent.call('secret.get', { name: 'HIDDEN' })).value).toBe(VALUE);
  });
});

/** Q5 for K1: two people providing one secret request at once: one value is stored, the other is told it already ended. */
it('[K1][Q5] two provides of one request at once: one is stored, the other answers QUESTION_ALREADY_TERMINAL, and the value read is the stored one', async () => {
  const { tg, admin, agent, sessionKey } = await setup();
  const questions = await tg.connect('questions');
  const { id } = await agent.call('secret.request', { name: 'DEPLOY_TOKEN', description: 'To deploy', sessionKey });
  const tries = await Promise.allSettled([admin.call('secret.provide', { id, value: 'value-from-admin' }), questions.call('secret.provide', { id, value: 'value-from-questions' })]);
  const stored = tries.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
  expect(stored).toHaveLength(1);
  const refused = tries.find((r) => r.status === 'rejected') as PromiseRejectedResult;
  expect(refused.reason).toMatchObject({ code: 'QUESTION_ALREADY_TERMINAL', details: { id, status: 'stored' } });
  const value = stored[0] === 0 ? 'value-from-admin' : 'value-from-questions';
  expect(await agent.call('secret.get', { name: 'DEPLOY_TOKEN' })).toMatchObject({ value });
  expect(admin.eventsNamed('secret.resolved').filter((e) => e.id === id)).toHaveLength(1);
});
