import { afterEach, describe, expect, it } from 'vitest';
import { verifyExport, verifyReceipt } from '../../audit/index.ts';
import { failure, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { answeredApproval, exportFiles, publicKeys } from '../../testing/audit-gateway.ts';
import { policyConfig } from '../../testing/policy-config.ts';
import { FakeClock } from '../../testing/fake-clock.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('the audit log through the gateway (L1, L2, L4-L6)', () => {
  it('[L4][L5][L6] an approval answered gives the waiting agent a receipt; the export verifies with only the public key; one changed byte names the entry', async () => {
    t = await startTestGateway({ config: policyConfig, auditSigning: true });
    const { admin, id, waited } = await answeredApproval(t);
    expect(waited.decision?.behavior).toBe('allow');
    const keys = await publicKeys(t);
    const receipt = verifyReceipt(waited.receipt!, keys);
    expect(receipt).toMatchObject({ ok: true, payload: { questionId: id, status: 'allowed', decidedBy: 'person', askedBy: 'agent', rules: ['push'] } });
    expect(JSON.stringify(receipt)).not.toContain('Allow"');
    // question.get and question.resolved carry the same receipt.
    expect((await admin.call('question.get', { id })).question.receipt).toBe(waited.receipt);
    expect(admin.eventsNamed('question.resolved').find((p) => p.id === id)?.receipt).toBe(waited.receipt);

    const files = await exportFiles(admin);
    const lines = files.get('entries.jsonl')!.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((e) => e.event)).toEqual(['policy.loaded', 'question.asked', 'question.answered']);
    // L1: the asking names the rule that made it ask, as the decision does.
    expect(lines[1]).toMatchObject({ identity: 'agent', kind: 'approval', rules: ['push'] });
    expect(verifyExport(files, keys)).toMatchObject({ exit: 0, summary: { entries: 3, answers: 1, treeSize: 3 } });
    expect(verifyExport(files, keys, { file: 'r.jws', text: waited.receipt! })).toMatchObject({ exit: 0 });

    const entries = files.get('entries.jsonl')!;
    const tampered = new Map(files).set('entries.jsonl', entries.replace('"question.answered"', '"question.answerex"'));
    const bad = verifyExport(tampered, keys);
    expect(bad.exit).toBe(1);
    expect(JSON.stringify(bad)).toMatch(/entries\.jsonl/);
  });

  it('[L1][G5] a grant made by an answer and its revocation are entries of the log, in order, with who did each', async () => {
    t = await startTestGateway({ config: policyConfig, auditSigning: true });
    const admin = await t.connect('admin');
    const agent = await t.connect('agent', { clientId: 'agent-client' });
    const { session } = await admin.call('sessions.create', { title: 'Work' });
    const res = await agent.call('question.request', { sessionKey: session.key, approval: { tool: 'Bash', input: { command: 'git push origin main' } } });
    await admin.waitEvent('question.requested', (p) => p.question.id === res.id);
    await admin.call('question.resolve', { id: res.id, answers: { approval: ['Allow'] }, grant: { scope: 'session' } });
    const [grant] = (await admin.call('policy.get', {})).grants;
    await admin.call('policy.grant.revoke', { id: grant.id });
    const entries = (await exportFiles(admin)).get('entries.jsonl')!.trim().split('\n').map((l) => JSON.parse(l));
    expect(entries.map((e) => e.event)).toEqual(['policy.loaded', 'question.asked', 'grant.made', 'question.answered', 'grant.revoked']);
    expect(entries[2]).toMatchObject({ identity: 'admin', grantId: grant.id, questionId: res.id, detail: { rule: grant.rule, scope: 'session' } });
    expect(entries[4]).toMatchObject({ identity: 'admin', grantId: grant.id });
  });

  it('[L1][L5] `--agent` exports the life of every question that agent asked: a plain question and an approval the policy decided', async () => {
    t = await startTestGateway({ config: policyConfig, auditSigning: true });
    const admin = await t.connect('admin');
    const agent = await t.connect('agent', { clientId: 'agent-client' });
    const { session } = await admin.call('sessions.create', { title: 'Work' });
    const lunch = { id: 'lunch', header: 'Lunch', question: 'What for lunch?', options: [{ label: 'Pizza' }, { label: 'Sushi' }] };
    const asked = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
    await admin.call('question.resolve', { id: asked.id, answers: { lunch: ['Sushi'] } });
    const allowed = await agent.call('question.request', { sessionKey: session.key, approval: { tool: 'Bash', input: { command: 'npm run test' }, agent: 'claude-code' } });
    expect(allowed.status).toBe('answered');
    const files = await exportFiles(admin, { agentId: 'agent' });
    const entries = files.get('entries.jsonl')!.trim().split('\n').map((l) => JSON.parse(l));
    expect(entries.map((e) => [e.event, e.questionId])).toEqual([['question.asked', asked.id], ['question.answered', asked.id], ['policy.allowed', allowed.id]]);
    // The kind the approval named itself is kept beside the agent, not in its place.
    expect(entries[2]).toMatchObject({ agentId: 'agent', identity: 'policy', detail: { agentKind: 'claude-code' } });
    expect(verifyExport(files, await publicKeys(t), { file: 'r.jws', text: allowed.receipt! })).toMatchObject({ exit: 0 });
    expect((await exportFiles(admin, { agentId: 'claude-code' })).get('entries.jsonl')).toBe('');
  });

  it('[A3][L5] a guest-scoped identity may not export the log', async () => {
    t = await startTestGateway({ config: policyConfig, auditSigning: true });
    const guest = await t.connect('guest');
    expect(await failure(guest.call('audit.export', {}))).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('[L2] a checkpoint is signed by itself once 256 entries came in, covering them', { timeout: 90_000 }, async () => {
    // A clock that stands still: the 60 s duty never signs here, only the count does.
    t = await startTestGateway({ config: policyConfig, auditSigning: true, memory: true, clock: new FakeClock() });
    const admin = await t.connect('admin');
    const agent = await t.connect('agent', { clientId: 'agent-client' });
    const { session } = await admin.call('sessions.create', { title: 'Many' });
    // Each request the policy allows is one entry, after the policy's load.
    for (let i = 0; i < 255; i++) await agent.call('question.request', { sessionKey: session.key, approval: { tool: 'Bash', input: { command: `npm run test t${i}` } } });
    // Signed in the background once the 256th entry is in: asked for until it shows (the bound only limits a failing wait).
    const signedSize = async () => Number((await admin.call('audit.checkpoint', {})).checkpoint?.split('\n')[1] ?? 0);
    await expect.poll(signedSize, { timeout: 30_000 }).toBe(256);
  });
});
