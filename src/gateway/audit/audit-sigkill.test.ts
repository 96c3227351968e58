import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseVerifierKey, verifyReceipt } from '../../audit/index.ts';
import { spawnGateway, type GatewayChild } from '../../testing/gateway-child.ts';
import { item, testConfig, tokenOf } from '../../testing/gateway-harness.ts';
import { runAskdock } from '../../testing/hook-process.ts';
import { freshSchema, type TestSchema } from '../../testing/postgres.ts';
import { TestClient } from '../../testing/ws-client.ts';

const children: GatewayChild[] = [];
const clients: TestClient[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const g of children.splice(0)) {
    if (g.proc.exitCode === null && g.proc.signalCode === null) g.proc.kill('SIGKILL');
    await g.exit;
  }
  for (const f of cleanups.splice(0)) await f();
});

async function start(db: string, config: string): Promise<GatewayChild> {
  const g = await spawnGateway(['--port', '0', '--db', db, '--config', config], 60_000);
  children.push(g);
  return g;
}

async function connect(g: GatewayChild, who: 'admin' | 'agent'): Promise<TestClient> {
  const c = await TestClient.open(g.wsUrl);
  clients.push(c);
  expect((await c.connect(tokenOf(who), { clientId: `${who}-sigkill` })).ok).toBe(true);
  return c;
}

/** Asks a question and answers it; returns once the gateway acknowledged the answer (and the asker has its receipt). */
async function answered(admin: TestClient, agent: TestClient, sessionKey: string) {
  const { id } = await agent.call('question.request', { sessionKey, questions: [item()], timeoutMs: 600_000 });
  await admin.call('question.resolve', { id, answers: { env: ['Production'] } });
  return { id, receipt: (await agent.call('question.waitAnswer', { id })).receipt! };
}

const stores: [string, () => Promise<{ db: string; drop: () => Promise<void> | void }>][] = [
  ['SQLite', async () => ({ db: join(mkdtempSync(join(tmpdir(), 'askdock-sigkill-db-')), 'askdock.db'), drop: () => undefined })],
  ['PostgreSQL', async () => {
    const schema: TestSchema = await freshSchema('sigkill');
    return { db: schema.url, drop: () => schema.drop() };
  }],
];

describe.each(stores)('the audit log across a SIGKILL (L1, L2, L7) on %s', (_name, makeStore) => {
  it('[L1][L7] an answered question\'s entries, past the last checkpoint, survive a SIGKILL; the self-check passes on restart and the next checkpoint covers them; the export verifies', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'askdock-sigkill-'));
    const { db, drop } = await makeStore();
    cleanups.push(drop, () => rmSync(dir, { recursive: true, force: true }));
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify(testConfig));

    const first = await start(db, config);
    const admin = await connect(first, 'admin');
    const agent = await connect(first, 'agent');
    const { session } = await admin.call('sessions.create', { title: 'Killed' });
    const before = await answered(admin, agent, session.key);
    expect((await admin.call('audit.checkpoint', { sign: true })).treeSize).toBe(2);
    // Acknowledged after the last checkpoint, then the gateway is killed before it signs another.
    const after = await answered(admin, agent, session.key);
    first.proc.kill('SIGKILL');
    await first.exit;

    const second = await start(db, config);
    const admin2 = await connect(second, 'admin');
    // L7 at start: the stored entries still match the signed checkpoint.
    const state = await admin2.call('audit.checkpoint', {});
    expect(state).toMatchObject({ treeSize: 4, integrity: { ok: true } });
    expect(state.checkpoint!.split('\n')[1]).toBe('2');
    expect([...second.stdout, ...second.stderr].join('\n')).not.toMatch(/does not match its signed checkpoints/);
    const signed = await admin2.call('audit.checkpoint', { sign: true });
    expect(signed).toMatchObject({ treeSize: 4, integrity: { ok: true } });
    expect(signed.checkpoint!.split('\n')[1]).toBe('4');

    const key = ((await (await fetch(`${second.url}/.well-known/askdock/audit-keys`)).json()) as { keys: { verifierKey: string }[] }).keys[0].verifierKey;
    const receipt = verifyReceipt(after.receipt, [parseVerifierKey(key)]);
    expect(receipt).toMatchObject({ ok: true, payload: { questionId: after.id, status: 'answered', entryIndex: 3 } });
    const out = join(dir, 'export');
    const exported = await runAskdock(['audit', 'export', '--out', out], { cwd: dir, env: { ASKDOCK_URL: second.wsUrl, ASKDOCK_TOKEN: tokenOf('admin') } });
    expect(exported.code).toBe(0);
    const entries = readFileSync(join(out, 'entries.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { questionId: string; event: string });
    expect(entries.map((e) => [e.questionId, e.event])).toEqual([
      [before.id, 'question.asked'],
      [before.id, 'question.answered'],
      [after.id, 'question.asked'],
      [after.id, 'question.answered'],
    ]);
    const verified = await runAskdock(['audit', 'verify', out, '--key', key], { cwd: tmpdir() });
    expect(verified.code).toBe(0);
  });
});
