/** L9: the newest checkpoint and an entry's inclusion proof are for anyone holding a receipt; signing one stays admins'. */
import { afterEach, expect, it } from 'vitest';
import { EVERYONE, failure, item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { createMemoryStore } from '../store/memory.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const lunch = item({ id: 'lunch', header: 'Lunch', question: 'What for lunch?', options: [{ label: 'Pizza' }, { label: 'Sushi' }] });
const payloadOf = (receipt: string) => JSON.parse(Buffer.from(receipt.split('.')[1], 'base64url').toString('utf8')) as { entryIndex: number };

/** A signed gateway where the agent asked a question and the admin answered it: the answer as the agent waited for it. */
async function answeredLunch() {
  t = await startTestGateway({ auditSigning: true });
  const admin = await t.connect('admin');
  const agent = await t.connect('agent');
  const { session } = await admin.call('sessions.create', { title: 'Lunch' });
  const { id } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
  await admin.call('question.resolve', { id, answers: { lunch: ['Sushi'] } });
  return { t, admin, agent, session, answered: await agent.call('question.waitAnswer', { id }) };
}

it('[L9][L4][A5] every identity reads the newest checkpoint and its receipt\'s inclusion proof; only an admin signs one, reads the self-check or the live count', async () => {
  const { t, admin, agent, session, answered } = await answeredLunch();
  expect(answered.receipt).toBeDefined();
  const { entryIndex } = payloadOf(answered.receipt!);
  await admin.call('audit.checkpoint', { sign: true });

  const signed = await admin.call('audit.checkpoint', {});
  // Entries after the checkpoint: the live count moves, what others read does not (A4: entries of sessions they may not see).
  const { id: later } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
  await admin.call('question.resolve', { id: later, answers: { lunch: ['Pizza'] } });
  expect((await admin.call('audit.checkpoint', {})).treeSize).toBeGreaterThan(signed.treeSize);

  for (const who of EVERYONE) {
    const c = await t.connect(who);
    const read = await c.call('audit.checkpoint', {});
    expect(read.checkpoint, who).toBe(signed.checkpoint);
    expect(read.treeSize).toBeGreaterThan(entryIndex);
    if (who !== 'admin') {
      expect(read.treeSize, who).toBe(signed.treeSize);
      const past = await failure(c.call('audit.proof', { index: entryIndex, size: signed.treeSize + 1 }));
      expect(past.code).toBe('INVALID_REQUEST');
      expect(past.message).toBe(`audit.proof: index ${entryIndex} must be below size ${signed.treeSize + 1}, and size at most the latest checkpoint's ${signed.treeSize}`);
    }
    if (who === 'admin') expect(read.integrity).toEqual({ ok: true });
    else expect(read, who).not.toHaveProperty('integrity');
    const proof = await c.call('audit.proof', { index: entryIndex, size: read.treeSize });
    expect(proof).toMatchObject({ index: entryIndex, treeSize: read.treeSize, checkpoint: read.checkpoint });
    expect(proof.inclusion.length).toBeGreaterThan(0);
    if (who !== 'admin') {
      const refused = await failure(c.call('audit.checkpoint', { sign: true }));
      expect(refused.code, who).toBe('FORBIDDEN');
      expect(refused.message).toContain('operator.admin');
      // A5: the same shape as every scope refusal, the scope that would allow it in details.
      expect(refused.details, who).toMatchObject({ needed: ['operator.admin'] });
    }
  }
});

/** Two checkpoints signed by the admin, the answered question's entry in both; `reads` counts whole reads of the checkpoint table. */
async function twoCheckpoints() {
  const reads = { all: 0 };
  const base = createMemoryStore();
  const store = new Proxy(base, {
    get: (target, name, receiver) =>
      name === 'auditCheckpoints' ? () => (reads.all++, target.auditCheckpoints()) : Reflect.get(target, name, receiver),
  });
  t = await startTestGateway({ auditSigning: true, store });
  const close = t.close.bind(t);
  t.close = async (o) => (await close(o), await base.close());
  const admin = await t.connect('admin');
  const agent = await t.connect('agent');
  const { session } = await admin.call('sessions.create', { title: 'Lunch' });
  const { id } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
  await admin.call('question.resolve', { id, answers: { lunch: ['Sushi'] } });
  const { entryIndex } = payloadOf((await agent.call('question.waitAnswer', { id })).receipt!);
  const older = await admin.call('audit.checkpoint', { sign: true });
  const { id: later } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [lunch] });
  await admin.call('question.resolve', { id: later, answers: { lunch: ['Pizza'] } });
  const newer = await admin.call('audit.checkpoint', { sign: true });
  expect(newer.treeSize).toBeGreaterThan(older.treeSize + 1);
  return { t, admin, entryIndex, older, newer, reads };
}

it('[L9] an admin\'s audit.proof answers the checkpoint signed at the size asked for, found without reading every checkpoint', async () => {
  const { admin, entryIndex, older, newer, reads } = await twoCheckpoints();
  reads.all = 0;
  const proof = await admin.call('audit.proof', { index: entryIndex, size: older.treeSize });
  expect(proof).toMatchObject({ treeSize: older.treeSize, checkpoint: older.checkpoint });
  // A size no checkpoint was signed at: the newest.
  expect((await admin.call('audit.proof', { index: entryIndex, size: older.treeSize + 1 })).checkpoint).toBe(newer.checkpoint);
  expect((await admin.call('audit.proof', { index: entryIndex })).checkpoint).toBe(newer.checkpoint);
  expect(reads.all).toBe(0);
});

it('[L9][A4] others than admins get the checkpoint their proof leads to as well, for signed sizes only', async () => {
  const { t, entryIndex, older, newer } = await twoCheckpoints();
  for (const who of EVERYONE.filter((w) => w !== 'admin')) {
    const c = await t.connect(who);
    const atPast = await c.call('audit.proof', { index: entryIndex, size: older.treeSize });
    const atNone = await c.call('audit.proof', { index: entryIndex, size: older.treeSize + 1 });
    expect(atPast, who).toMatchObject({ treeSize: older.treeSize, checkpoint: older.checkpoint });
    expect(atNone, who).toMatchObject({ treeSize: older.treeSize + 1, checkpoint: newer.checkpoint });
    expect((await c.call('audit.proof', { index: entryIndex })).checkpoint, who).toBe(newer.checkpoint);
    await expect(c.call('audit.proof', { index: entryIndex, size: newer.treeSize + 1 }), who).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  }
});
