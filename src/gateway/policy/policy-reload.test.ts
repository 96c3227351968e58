import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway, testConfig, type TestGateway } from '../../testing/gateway-harness.ts';
import { auditEntries } from '../../testing/audit-entries.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const rulesFile = (rules: unknown[]) => JSON.stringify({ rules });
const allowTests = { id: 'npm-tests', rule: 'Bash(npm run test *)', decision: 'allow' };
const denyPush = { id: 'no-push', rule: 'Bash(git push *)', decision: 'deny' };

/** A gateway started from a config file whose approvals name `policy.json` beside it. */
async function withPolicyFile(rules: unknown[]) {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-policy-'));
  const config = join(dir, 'askdock.json');
  const file = join(dir, 'policy.json');
  writeFileSync(file, rulesFile(rules));
  writeFileSync(config, JSON.stringify({ ...testConfig, approvals: { file: 'policy.json' } }));
  // The config file names the identities; the harness's own config object would win over it.
  t = await startTestGateway({ configPath: config, dir, config: undefined });
  return { file, admin: await t.connect('admin'), agent: await t.connect('agent') };
}

/** L1: the audit log's policy.loaded entries. */
async function policyLoads(admin: Parameters<typeof auditEntries>[0]) {
  return (await auditEntries(admin)).filter((e) => e.event === 'policy.loaded');
}

describe('the policy file, re-read (G1, G10)', () => {
  it('[G1] a change to approvals.file is read again; [G10] a bad one keeps the previous policy (and its loadedAtMs), and admins are told why', async () => {
    const { file, admin, agent } = await withPolicyFile([allowTests]);
    const first = await admin.call('policy.get', {});
    expect(first.rules).toEqual([{ id: 'npm-tests', rule: 'Bash(npm run test *)', decision: 'allow', layer: 'file' }]);
    expect(first.error).toBeUndefined();

    writeFileSync(file, rulesFile([allowTests, denyPush]));
    const reloaded = await admin.waitEvent('policy.updated', (p) => p.loadedAtMs > first.loadedAtMs && p.error === undefined, 10_000);
    expect((await admin.call('policy.get', {})).rules.map((r) => r.id)).toEqual(['npm-tests', 'no-push']);

    writeFileSync(file, rulesFile([allowTests, { ...denyPush, decision: 'never' }]));
    const failed = await admin.waitEvent('policy.updated', (p) => p.error !== undefined, 10_000);
    expect(failed.error).toContain('rules[1].decision');
    const kept = await admin.call('policy.get', {});
    expect(kept.rules.map((r) => r.id)).toEqual(['npm-tests', 'no-push']);
    expect(kept.error).toBe(failed.error);
    // A failed reload loaded nothing: loadedAtMs stays the time of the policy in force (the Rules page's "Loaded …").
    expect(failed.loadedAtMs).toBe(reloaded.loadedAtMs);
    expect(kept.loadedAtMs).toBe(reloaded.loadedAtMs);
    // The agent sees none of it (G12: admins only), and the previous policy still decides.
    expect(agent.eventsNamed('policy.updated')).toEqual([]);
    expect((await agent.call('policy.check', { tool: 'Bash', input: { command: 'git push origin main' } })).decision).toBe('deny');
    expect(t!.logs.some((l) => l.includes('the previous policy stays in force'))).toBe(true);
  });

  it('[G1] SIGHUP reads the file again', async () => {
    const { file, admin } = await withPolicyFile([allowTests]);
    const before = await admin.call('policy.get', {});
    writeFileSync(file, rulesFile([denyPush]));
    process.emit('SIGHUP', 'SIGHUP');
    await admin.waitEvent('policy.updated', (p) => p.loadedAtMs >= before.loadedAtMs && p.error === undefined, 10_000);
    await expect.poll(async () => (await admin.call('policy.get', {})).rules.map((r) => r.id), { timeout: 10_000 }).toEqual(['no-push']);
  });

  it('[L1][G10] the policy loaded at start, a reload and a failed reload are audit entries: the file, the rule count, the digest in force, why it failed', async () => {
    const { file, admin } = await withPolicyFile([allowTests]);
    const [start] = await policyLoads(admin);
    expect(start).toMatchObject({ status: 'loaded', detail: { source: file, rules: 1 } });
    expect(start.detail?.policyDigest).toMatch(/^[A-Za-z0-9_-]{43}$/);

    writeFileSync(file, rulesFile([allowTests, denyPush]));
    await expect.poll(async () => (await policyLoads(admin)).some((e) => e.detail?.rules === 2), { timeout: 10_000 }).toBe(true);
    const reloaded = (await policyLoads(admin)).find((e) => e.detail?.rules === 2)!;
    expect(reloaded).toMatchObject({ status: 'loaded', detail: { source: file } });
    expect(reloaded.detail?.policyDigest).not.toBe(start.detail?.policyDigest);

    writeFileSync(file, rulesFile([allowTests, { ...denyPush, decision: 'never' }]));
    await expect.poll(async () => (await policyLoads(admin)).some((e) => e.status === 'failed'), { timeout: 10_000 }).toBe(true);
    const failed = (await policyLoads(admin)).find((e) => e.status === 'failed')!;
    expect(failed.detail?.error).toContain('rules[1].decision');
    // The policy before it stays in force, and the entry names its digest.
    expect(failed.detail).toMatchObject({ source: file, rules: 2, policyDigest: reloaded.detail?.policyDigest });
  });

  it('[L1] a gateway with no policy records no policy load', async () => {
    t = await startTestGateway({});
    expect(await policyLoads(await t.connect('admin'))).toEqual([]);
  });
});
