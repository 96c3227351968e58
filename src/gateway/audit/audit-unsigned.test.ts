/** L8: a gateway without a usable key runs unsigned: what needs a signature is refused with AUDIT_KEY_MISSING. */
import { afterEach, describe, expect, it } from 'vitest';
import { failure, item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { exportFiles } from '../../testing/audit-gateway.ts';
import { saltedDigestOf } from '../../audit/index.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function unsignedAdmin() {
  t = await startTestGateway({ auditSigning: false });
  return t.connect('admin');
}

describe('an unsigned audit log (L8)', () => {
  it('[L8] audit.export without unsigned:true is refused with AUDIT_KEY_MISSING, naming --unsigned; with it the entries come', async () => {
    const admin = await unsignedAdmin();
    const refused = await failure(admin.call('audit.export', {}));
    expect(refused.code).toBe('AUDIT_KEY_MISSING');
    expect(refused.message).toContain('--unsigned');
    const page = await admin.call('audit.export', { unsigned: true });
    expect(page.files.map((f) => f.name)).toContain('entries.jsonl');
  });

  it('[L8][L5] an unsigned export still holds each answer with its salt (answers.jsonl), which checks against its entry\'s digest; --redact answers leaves it out', async () => {
    const admin = await unsignedAdmin();
    const agent = await t!.connect('agent');
    const lunch = item({ id: 'lunch', header: 'Lunch', question: 'What for lunch?', options: [{ label: 'Pizza' }, { label: 'Sushi' }] });
    const { id } = await agent.call('question.request', { mode: 'async', questions: [lunch] });
    await admin.call('question.resolve', { id, answers: { lunch: ['Sushi'] } });
    const files = await exportFiles(admin, { unsigned: true });
    const [answer] = files.get('answers.jsonl')!.trim().split('\n').map((l) => JSON.parse(l) as { entryIndex: number; questionId: string; salt: string; answers: unknown });
    expect(answer).toMatchObject({ questionId: id, answers: { lunch: ['Sushi'] } });
    const entry = files.get('entries.jsonl')!.trim().split('\n').map((l) => JSON.parse(l) as { index: number; answersDigest?: string }).find((e) => e.index === answer.entryIndex);
    expect(saltedDigestOf(answer.answers, Buffer.from(answer.salt, 'base64url'))).toBe(entry?.answersDigest);
    const redacted = await exportFiles(admin, { unsigned: true, redact: 'answers' });
    expect([...redacted.keys()]).toEqual(['entries.jsonl']);
    expect([...redacted.values()].join('')).not.toContain('Sushi');
  });

  it('[L8][L9] audit.checkpoint {sign:true} is refused with AUDIT_KEY_MISSING; reading it says unsigned', async () => {
    const admin = await unsignedAdmin();
    const refused = await failure(admin.call('audit.checkpoint', { sign: true }));
    expect(refused.code).toBe('AUDIT_KEY_MISSING');
    expect(refused.message).toContain('audit: unsigned');
    expect(await admin.call('audit.checkpoint', {})).toMatchObject({ checkpoint: null, unsigned: true });
  });
});

describe('what an unsigned log tells those who are not admins (A4)', () => {
  it('[A4][L9] audit.proof from a non-admin says nothing of the live count: its refusal is the same before and after entries it may not see', async () => {
    t = await startTestGateway({ auditSigning: false });
    const [agent, agent2, reader] = [await t.connect('agent'), await t.connect('agent2'), await t.connect('reader')];
    const refusals = async () => Promise.all([agent2, reader].map(async (c) => (await failure(c.call('audit.proof', { index: 0 }))).message));
    const before = await refusals();
    const id = (await agent.call('question.request', { mode: 'async', privileged: true, questions: [item()] })).id;
    await agent.call('question.resolve', { id, cancel: true });
    expect(await refusals()).toEqual(before);
    // Nothing was signed, so there is nothing to prove for them: not even the first entry.
    expect(before[0]).toBe("audit.proof: index 0 must be below size 0, and size at most the latest checkpoint's 0");
  });
});
