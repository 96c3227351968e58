import { chmodSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateKeyFile, parseVerifierKey, verifyReceipt } from '../../audit/index.ts';
import { spawnGateway, type GatewayChild } from '../../testing/gateway-child.ts';
import { startCluster } from '../../testing/gateway-cluster.ts';
import { tokenOf } from '../../testing/gateway-harness.ts';
import { runAskdock } from '../../testing/hook-process.ts';
import { policyConfig } from '../../testing/policy-config.ts';
import { freshSchema, type TestSchema } from '../../testing/postgres.ts';
import { TestClient } from '../../testing/ws-client.ts';

let schema: TestSchema;
let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
const others: GatewayChild[] = [];
const clients: TestClient[] = [];

beforeEach(async () => {
  schema = await freshSchema('auditkeys');
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const g of others.splice(0)) {
    if (g.proc.exitCode === null && g.proc.signalCode === null) g.proc.kill('SIGTERM');
    await g.exit;
  }
  await cluster?.close();
  cluster = undefined;
  await schema.drop();
});

const LONG = { timeout: 180_000 };

/**
 * A second gateway of the database on "another machine": a folder of its own with a copy of the config and of the
 * secrets key (K1: every gateway of a database shares it), and, when given, a key file of its own.
 */
async function anotherGateway(configPath: string, secretsKey: string, ownAuditKey = false): Promise<{ g: GatewayChild; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-other-'));
  writeFileSync(join(dir, 'config.json'), readFileSync(configPath));
  copyFileSync(secretsKey, join(dir, 'secrets.key'));
  chmodSync(join(dir, 'secrets.key'), 0o600);
  if (ownAuditKey) loadOrCreateKeyFile(join(dir, 'audit.key'), { now: new Date() });
  const g = await spawnGateway(['--port', '0', '--db', schema.url, '--config', join(dir, 'config.json')], 60_000);
  others.push(g);
  return { g, dir };
}

async function connect(wsUrl: string, who: 'admin' | 'agent'): Promise<TestClient> {
  const c = await TestClient.open(wsUrl);
  clients.push(c);
  expect((await c.connect(tokenOf(who))).ok).toBe(true);
  return c;
}

const keysDoc = async (g: GatewayChild) => (await (await fetch(`${g.url}/.well-known/askdock/audit-keys`)).json()) as { keys: { verifierKey: string }[] };

describe('one audit log and one key for the gateways of one PostgreSQL database (L3, L7)', () => {
  it('[L3][L2][L6] two gateways on separate folders: one key published by both, entries of both in one tree, checkpoints signed by either extend each other, the export verifies with the key alone', LONG, async () => {
    const c = (cluster = await startCluster(1, schema.url, { config: policyConfig }));
    const a = c.gateways[0];
    const { g: b, dir: bDir } = await anotherGateway(c.configPath, join(c.dir, 'secrets.key'));
    // One key: the second gateway took the database's, and keeps a copy for `askdock audit key`.
    const published = await keysDoc(a);
    expect(await keysDoc(b)).toEqual(published);
    expect(published.keys).toHaveLength(1);
    const keys = published.keys.map((k) => parseVerifierKey(k.verifierKey));
    const printed = await runAskdock(['audit', 'key', '--db', schema.url, '--config', join(bDir, 'config.json')], { cwd: bDir });
    expect(printed.stdout.trim()).toBe(published.keys[0].verifierKey);

    const [agentA, agentB, adminA, adminB] = await Promise.all([connect(a.wsUrl, 'agent'), connect(b.wsUrl, 'agent'), connect(a.wsUrl, 'admin'), connect(b.wsUrl, 'admin')]);
    const { session } = await adminA.call('sessions.create', { title: 'Both' });
    const receipts: string[] = [];
    // Appends through both gateways, with checkpoints asked of both in between (either may sign; each extends the last).
    for (let i = 0; i < 6; i++) {
      const agent = i % 2 === 0 ? agentA : agentB;
      const [asked] = await Promise.all([
        agent.call('question.request', { sessionKey: session.key, approval: { tool: 'Bash', input: { command: `npm run test t${i}` } } }),
        (i % 2 === 0 ? adminB : adminA).call('audit.checkpoint', { sign: true }),
      ]);
      expect(asked.receipt).toBeDefined();
      receipts.push(asked.receipt!);
    }
    // A receipt from either gateway verifies with the published key.
    for (const r of receipts) expect(verifyReceipt(r, keys)).toMatchObject({ ok: true, payload: { status: 'allowed', decidedBy: 'policy' } });
    const indexes = receipts.map((r) => (verifyReceipt(r, keys) as { payload: { entryIndex: number } }).payload.entryIndex);
    expect(new Set(indexes).size).toBe(6);
    // Both gateways see the same integrity: no check failed on either.
    expect((await adminA.call('audit.checkpoint', {})).integrity).toEqual({ ok: true });
    expect((await adminB.call('audit.checkpoint', {})).integrity).toEqual({ ok: true });

    const out = join(mkdtempSync(join(tmpdir(), 'askdock-export-')), 'export');
    const exported = await runAskdock(['audit', 'export', '--out', out], { cwd: bDir, env: { ASKDOCK_URL: b.wsUrl, ASKDOCK_TOKEN: tokenOf('admin') } });
    expect(exported.stderr).toBe('');
    // Each gateway's policy load and the six decisions, 0..7 with no gap.
    expect(exported.stdout).toMatch(/^exported 8 entries into /);
    const lines = readFileSync(join(out, 'entries.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { index: number; event: string });
    expect(lines.map((e) => e.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(lines.filter((e) => e.event === 'policy.loaded')).toHaveLength(2);
    const verified = await runAskdock(['audit', 'verify', out, '--key', published.keys[0].verifierKey], { cwd: tmpdir() });
    expect(verified.stdout + verified.stderr).toMatch(/^valid: entries 0\.\.7 \(8\)/);
    expect(verified.code).toBe(0);
  });

  it('[L7] a failed check one gateway found: admins of both read it, and the acknowledgement made on the other clears it, so the first signs again', LONG, async () => {
    const c = (cluster = await startCluster(2, schema.url, { config: policyConfig }));
    const [a, b] = c.gateways;
    const [agent, adminA, adminB] = await Promise.all([connect(a.wsUrl, 'agent'), connect(a.wsUrl, 'admin'), connect(b.wsUrl, 'admin')]);
    const { session } = await adminA.call('sessions.create', { title: 'Checked' });
    // Each gateway's policy load (entries 0 and 1) and the decision, signed over: the second gateway's load may land
    // after the first sign, so it signs again until its checkpoint covers all three.
    await agent.call('question.request', { sessionKey: session.key, approval: { tool: 'Bash', input: { command: 'npm run test' } } });
    const signedSize = async () => (await adminA.call('audit.checkpoint', { sign: true })).checkpoint?.split('\n')[1];
    await expect.poll(signedSize, { timeout: 30_000 }).toBe('3');
    const raw = new pg.Client({ connectionString: schema.url });
    await raw.connect();
    // The decision's time changed in the database: a digit put before it.
    await raw.query(`UPDATE audit_entries SET line = replace(line, '"atMs":', '"atMs":1') WHERE idx = 2`);
    await raw.end();

    const failedCheck = { ok: false, detail: 'the stored entries no longer match the checkpoint of size 3: an entry below index 3 was changed' };
    expect((await adminA.call('audit.checkpoint', { sign: true })).integrity).toEqual(failedCheck);
    // The other gateway's admins are told, and read the same.
    expect(await adminB.waitEvent('audit.integrity', (p) => !p.ok)).toMatchObject(failedCheck);
    expect((await adminB.call('audit.checkpoint', {})).integrity).toEqual(failedCheck);

    expect(await adminB.call('audit.acknowledge', { note: 'row 2 restored from backup' })).toEqual({ acknowledged: true, entryIndex: 3 });
    expect(await adminA.call('audit.acknowledge', {})).toEqual({ acknowledged: false });
    expect((await adminA.call('audit.checkpoint', {})).integrity).toEqual({ ok: true });
    // The first gateway signs again, over the log as it is.
    await agent.call('question.request', { sessionKey: session.key, approval: { tool: 'Bash', input: { command: 'npm run lint' } } });
    const signed = await adminA.call('audit.checkpoint', { sign: true });
    expect(signed).toMatchObject({ treeSize: 5, integrity: { ok: true } });
    expect(signed.checkpoint!.split('\n')[1]).toBe('5');
  });

  it('[L3][L8] a gateway whose own key file holds another key than the database\'s runs unsigned, naming the file, rather than sign a second log', LONG, async () => {
    const c = (cluster = await startCluster(1, schema.url, { config: policyConfig }));
    const { g, dir } = await anotherGateway(c.configPath, join(c.dir, 'secrets.key'), true);
    await expect.poll(() => g.stdout.join('\n'), { timeout: 30_000 }).toContain(`audit: unsigned (the audit key file ${join(dir, 'audit.key')} holds another key`);
    expect((await keysDoc(g)).keys).toEqual([]);
    // The first gateway still signs with the database's key.
    expect((await keysDoc(c.gateways[0])).keys).toHaveLength(1);
  });
});
