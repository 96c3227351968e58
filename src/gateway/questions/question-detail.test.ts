import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from '../gateway.ts';
import { memoryLogger } from '../infra/logger.ts';
import { failure, item, startTestGateway, testConfig, tokenOf, type TestGateway } from '../../testing/gateway-harness.ts';
import { TestClient } from '../../testing/ws-client.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A diff as an approval carries it: leading spaces, tabs, blank lines and markup that must stay text. */
const DETAIL = ['--- a/src/app.ts', '+++ b/src/app.ts', '@@ -1,3 +1,3 @@', '   keep\tthis', '-<script>alert(1)</script>', '+  &amp; done', '', '  '].join('\n');
const approval = () => item({ id: 'approve', header: 'Bash', question: 'Allow Bash rm -rf build?', options: [{ label: 'Allow' }, { label: 'Deny' }], detail: DETAIL });

describe('question detail', () => {
  it('[Q2][X2] is stored as given and comes back in question.get, question.list, its events, the snapshot and the replay', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const agent = await t.connect('agent', { clientId: 'agent-detail' });
    const leaving = await t.connect('admin');
    const cursor = leaving.hello!.snapshot.cursor;
    leaving.close();
    const { session } = await admin.call('sessions.create', { title: 'Detail' });
    const { id } = await agent.call('question.request', { sessionKey: session.key, mode: 'async', questions: [approval(), item()] });

    expect((await admin.call('question.get', { id })).question.questions.map((q) => q.detail)).toEqual([DETAIL, undefined]);
    expect((await admin.call('question.list', { sessionKey: session.key })).questions[0].questions[0].detail).toBe(DETAIL);
    expect((await admin.waitEvent('question.requested', (e) => e.question.id === id)).question.questions[0].detail).toBe(DETAIL);
    const later = await t.connect('admin');
    expect(later.hello!.snapshot.pendingQuestions.find((q) => q.id === id)?.questions[0].detail).toBe(DETAIL);

    const back = await t.open();
    await back.connect(tokenOf('admin'), { resume: { cursor } });
    expect(back.hello!.resumed).toBe(true);
    expect((await back.waitEvent('question.requested', (e) => e.question.id === id)).question.questions[0].detail).toBe(DETAIL);

    await admin.call('question.resolve', { id, answers: { approve: ['Allow'], env: ['Staging'] } });
    await admin.waitEvent('question.resolved', (e) => e.id === id);
    expect((await admin.call('question.get', { id })).question.questions[0].detail).toBe(DETAIL);
  });

  it('[Q2][Q3] a resend with another detail is another question: QUESTION_ID_IN_USE; the same detail is the same one', async () => {
    t = await startTestGateway();
    const agent = await t.connect('agent', { clientId: 'agent-resend' });
    const first = await agent.call('question.request', { id: 'q-approve', mode: 'async', questions: [approval()] });
    const again = await agent.call('question.request', { id: 'q-approve', mode: 'async', questions: [approval()] });
    expect(again.id).toBe(first.id);
    const err = await failure(agent.call('question.request', { id: 'q-approve', mode: 'async', questions: [{ ...approval(), detail: `${DETAIL}\n+more` }] }));
    expect(err.code).toBe('QUESTION_ID_IN_USE');
  });

  it('[Q2][R3] survives a gateway restart on the same file', async () => {
    t = await startTestGateway();
    const agent = await t.connect('agent', { clientId: 'agent-restart' });
    // Answered once stored (R3): nothing to wait for before the restart.
    const { id } = await agent.call('question.request', { mode: 'async', questions: [approval()] });
    const { dir, dbPath } = t;
    await t.close({ keepDir: true });
    const { log } = memoryLogger();
    const gw = await startGateway({ port: 0, dbPath, config: testConfig, checkFrames: true, log, uiDir: `${dir}/no-ui`, tickIntervalMs: 3_600_000 });
    const c = await TestClient.open(gw.wsUrl);
    try {
      await c.connect(tokenOf('admin'));
      expect(c.hello!.snapshot.pendingQuestions.find((q) => q.id === id)?.questions[0].detail).toBe(DETAIL);
    } finally {
      c.close();
      await gw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
