import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { testConfig } from '../testing/gateway-harness.ts';
import { runAskdock } from '../testing/hook-process.ts';
import { connect, type Agent } from '../agent/sdk.ts';

describe('askdock audit export and verify against a running gateway (L5, L6)', { timeout: 120_000 }, () => {
  let t: TestGateway;
  let agent: Agent;
  let admin: Agent;
  const askdock = (...args: string[]) => runAskdock(args, { cwd: t.dir, env: { ASKDOCK_URL: t.url, ASKDOCK_TOKEN: t.operatorToken } });
  beforeAll(async () => {
    t = await startTestGateway({ config: { ...testConfig, approvals: { rules: [], unmatched: 'ask' } } as never, auditSigning: true });
    agent = await connect({ url: t.url, token: t.agentToken, mode: 'agent' });
    admin = await connect({ url: t.url, token: t.operatorToken, mode: 'cli' });
  }, 60_000);
  afterAll(async () => {
    agent?.close();
    admin?.close();
    await t?.close();
  });

  it('[L5][L6] an approval answered, exported by the real bin, verifies with the public key alone; one changed byte: exit 1 naming the entry', async () => {
    const { session } = await admin.client.request('sessions.create', { title: 'Deploy' });
    const asked = await agent.client.request('question.request', { sessionKey: session.key, approval: { tool: 'Bash', input: { command: 'make deploy' } } });
    await admin.client.request('question.resolve', { id: asked.id, answers: { approval: ['Allow'] } });
    const waited = await agent.client.request('question.waitAnswer', { id: asked.id });
    expect(waited.receipt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    // L4: the SDK's result carries the same receipt.
    expect((await agent.waitAnswer(asked.id)).receipt).toBe(waited.receipt);

    const doc = (await (await fetch(`${t.url.replace(/^ws/, 'http').replace(/\/ws$/, '')}/.well-known/askdock/audit-keys`)).json()) as { keys: { verifierKey: string }[] };
    const key = doc.keys[0].verifierKey;
    const out = join(mkdtempSync(join(tmpdir(), 'askdock-export-')), 'export');
    const exported = await askdock('audit', 'export', '--out', out);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    // The policy loaded at start, the question asked, its answer.
    expect(exported.stdout).toMatch(/^exported 3 entries into /);

    const valid = await runAskdock(['audit', 'verify', out, '--key', key], { cwd: tmpdir() });
    expect(valid.code).toBe(0);
    expect(valid.stdout).toMatch(/valid/);

    const file = join(out, 'entries.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"question.answered"', '"question.answerex"'));
    const tampered = await runAskdock(['audit', 'verify', out, '--key', key], { cwd: tmpdir() });
    expect(tampered.code).toBe(1);
    expect(tampered.stdout + tampered.stderr).toMatch(/entries\.jsonl/);
  });

  it('[L5] a folder that is neither new nor empty is refused before the gateway is asked (exit 2), and nothing in it is touched', async () => {
    const out = mkdtempSync(join(tmpdir(), 'askdock-export-'));
    writeFileSync(join(out, 'notes.txt'), 'mine');
    const refused = await askdock('audit', 'export', '--out', out);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--out ${out}: the folder must be new or empty, it holds notes.txt`);
    expect(readdirSync(out)).toEqual(['notes.txt']);
  });

  it('[A3][L5] a token without operator.admin (an agent token) is refused the export', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'askdock-export-')), 'export');
    const refused = await runAskdock(['audit', 'export', '--out', out], { cwd: t.dir, env: { ASKDOCK_URL: t.url, ASKDOCK_TOKEN: t.agentToken } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('FORBIDDEN');
  });
});
