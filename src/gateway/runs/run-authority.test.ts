import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../config.ts';
import { failure, item, startTestGateway, testConfig, tokenOf, type TestGateway } from '../../testing/gateway-harness.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const DENIED_TOKEN = 'token-of-denied-agent-0123';
const config: GatewayConfig = {
  identities: [...testConfig.identities, { id: 'denied', token: DENIED_TOKEN, role: 'agent', scopes: ['agent.run'], deny: ['ask_user'] }],
};

async function sessionWithAgent(tg: TestGateway) {
  const admin = await tg.connect('admin');
  const agent = await tg.connect('agent');
  const { session } = await admin.call('sessions.create', {});
  return { admin, agent, sessionKey: session.key };
}

/** RU2: the run's question is answered, yet the superseded run's chat.inject answers RUN_SUPERSEDED and saves nothing. */
async function answerThenRefused({ admin, agent, sessionKey }: Awaited<ReturnType<typeof sessionWithAgent>>, runId: string, id: string) {
  await admin.call('question.resolve', { id, answers: { env: ['Staging'] } });
  expect((await agent.call('question.waitAnswer', { id })).status).toBe('answered');
  const before = (await admin.call('chat.history', { sessionKey })).messages;
  const err = await failure(agent.call('chat.inject', { runId, text: 'Deploying to Staging', state: 'final' }));
  expect(err.code).toBe('RUN_SUPERSEDED');
  expect((await admin.call('chat.history', { sessionKey })).messages).toEqual(before);
}

describe('RU1: only a primary run may ask', () => {
  it('[RU1] question.request from a subagent run (parentRunId) answers FORBIDDEN with reason non-primary-run', async () => {
    t = await startTestGateway({ config });
    const { agent, sessionKey } = await sessionWithAgent(t);
    const { runId: parent } = await agent.call('run.start', { sessionKey });
    const { runId: child } = await agent.call('run.start', { sessionKey, parentRunId: parent });
    const err = await failure(agent.call('question.request', { runId: child, questions: [item()] }));
    expect(err.code).toBe('FORBIDDEN');
    expect(err.details).toMatchObject({ reason: 'non-primary-run' });
    const secret = await failure(agent.call('secret.request', { runId: child, name: 'API_KEY', description: 'for the deploy' }));
    expect(secret.code).toBe('FORBIDDEN');
    expect(secret.details).toMatchObject({ reason: 'non-primary-run' });
    // The primary run still asks.
    const asked = await agent.call('question.request', { runId: parent, questions: [item()] });
    expect(asked.id).toBeTruthy();
    expect(await agent.call('question.list', { status: 'pending' })).toMatchObject({ questions: [{ runId: parent }] });
  });

  it('[RU1] run.start names a parent run of the same agent, or answers INVALID_REQUEST naming parentRunId', async () => {
    t = await startTestGateway({ config });
    const { agent, sessionKey } = await sessionWithAgent(t);
    const err = await failure(agent.call('run.start', { sessionKey, parentRunId: 'r_nope' }));
    expect(err.code).toBe('INVALID_REQUEST');
    expect(err.details).toEqual([{ path: 'parentRunId', problem: expect.stringContaining('r_nope') }]);
    const { runId } = await agent.call('run.start', { sessionKey });
    // Another agent, in a session bound to it (A6), cannot make its runs children of this agent's run.
    const admin = await t.connect('admin');
    const { session: theirs } = await admin.call('sessions.create', { agentId: 'agent2' });
    const other = await t.connect('agent2');
    expect((await failure(other.call('run.start', { sessionKey: theirs.key, parentRunId: runId }))).code).toBe('INVALID_REQUEST');
  });

  it('[RU1] an identity with deny ["ask_user"] gets FORBIDDEN reason denied, and hello-ok lists no question.request nor secret.request', async () => {
    t = await startTestGateway({ config });
    const { admin: creator } = await sessionWithAgent(t);
    // A session bound to the denied identity (A6), so the refusal is about asking, not about the session.
    const { session } = await creator.call('sessions.create', { agentId: 'denied' });
    const sessionKey = session.key;
    const denied = await t.open();
    const hello = await denied.connect(DENIED_TOKEN);
    expect(hello.ok).toBe(true);
    const methods = denied.hello!.features.methods;
    expect(methods).not.toContain('question.request');
    expect(methods).not.toContain('secret.request');
    expect(methods).toContain('run.start');
    const { runId } = await denied.call('run.start', { sessionKey });
    const err = await failure(denied.call('question.request', { runId, questions: [item()] }));
    expect(err.code).toBe('FORBIDDEN');
    expect(err.details).toMatchObject({ reason: 'denied' });
    const sessionless = await failure(denied.call('question.request', { questions: [item()] }));
    expect(sessionless.details).toMatchObject({ reason: 'denied' });
    const secret = await failure(denied.call('secret.request', { name: 'API_KEY', description: 'x' }));
    expect(secret.details).toMatchObject({ reason: 'denied' });
    // Nothing was asked.
    const admin = await t.connect('admin');
    expect((await admin.call('question.list', {})).questions).toEqual([]);
    // An identity without a deny keeps both methods.
    const agent = await t.open();
    await agent.connect(tokenOf('agent'));
    expect(agent.hello!.features.methods).toEqual(expect.arrayContaining(['question.request', 'secret.request']));
  });
});

describe('RU2: an answer belongs to the turn that waited for it', () => {
  it('[RU2] the asking run goes on after its answer', async () => {
    t = await startTestGateway({ config });
    const { admin, agent, sessionKey } = await sessionWithAgent(t);
    await admin.call('chat.send', { sessionKey, message: 'deploy', idempotencyKey: 'ru2-msg-0001' });
    const { runId } = await agent.call('run.start', { sessionKey });
    const { id } = await agent.call('question.request', { runId, questions: [item()] });
    await admin.call('question.resolve', { id, answers: { env: ['Staging'] } });
    expect((await agent.call('question.waitAnswer', { id })).status).toBe('answered');
    const { messageId } = await agent.call('chat.inject', { runId, text: 'Deploying to Staging', state: 'final' });
    expect(messageId).toBeTruthy();
    expect(await agent.call('run.end', { runId, stopReason: 'end_turn' })).toEqual({ ended: true });
  });

  it('[RU2] an unrelated user message after the question supersedes the run: chat.inject answers RUN_SUPERSEDED and saves nothing', async () => {
    t = await startTestGateway({ config });
    const { admin, agent, sessionKey } = await sessionWithAgent(t);
    const { runId } = await agent.call('run.start', { sessionKey });
    const { id } = await agent.call('question.request', { runId, questions: [item()] });
    await admin.call('chat.send', { sessionKey, message: 'never mind, something else', idempotencyKey: 'ru2-msg-0003' });
    await answerThenRefused({ admin, agent, sessionKey }, runId, id);
    // It still ends cleanly, and a later run of the same session speaks normally.
    expect(await agent.call('run.end', { runId, stopReason: 'cancelled' })).toEqual({ ended: true });
    const next = await agent.call('run.start', { sessionKey });
    expect((await agent.call('chat.inject', { runId: next.runId, text: 'On it', state: 'final' })).messageId).toBeTruthy();
  });

  it.each(['chat.send replyTo', 'question.resolve'])('[RU2] a reply to another question (an async one, answered by %s) supersedes the waiting run', async (how) => {
    t = await startTestGateway({ config });
    const { admin, agent, sessionKey } = await sessionWithAgent(t);
    const other = await agent.call('question.request', { sessionKey, mode: 'async', questions: [item({ header: 'Later' })] });
    const { runId } = await agent.call('run.start', { sessionKey });
    const { id } = await agent.call('question.request', { runId, questions: [item()] });
    if (how === 'question.resolve') await admin.call('question.resolve', { id: other.id, answers: { env: ['Production'] } });
    else
      await admin.call('chat.send', { sessionKey, message: '> Later\nProduction', idempotencyKey: 'ru2-msg-other', replyTo: { questionId: other.id, answers: { env: ['Production'] } } });
    expect((await admin.call('question.get', { id: other.id })).question.status).toBe('answered');
    await answerThenRefused({ admin, agent, sessionKey }, runId, id);
  });

  it('[RU2] a run that asked nothing is not superseded by new messages', async () => {
    t = await startTestGateway({ config });
    const { admin, agent, sessionKey } = await sessionWithAgent(t);
    const { runId } = await agent.call('run.start', { sessionKey });
    await admin.call('chat.send', { sessionKey, message: 'and another thing', idempotencyKey: 'ru2-msg-0004' });
    expect((await agent.call('chat.inject', { runId, text: 'ok', state: 'final' })).messageId).toBeTruthy();
  });

  it('[RU2] an aborted run answers RUN_SUPERSEDED on chat.inject and saves nothing', async () => {
    t = await startTestGateway({ config });
    const { admin, agent, sessionKey } = await sessionWithAgent(t);
    const { runId } = await agent.call('run.start', { sessionKey });
    await agent.call('question.request', { runId, questions: [item()] });
    expect(await admin.call('chat.abort', { sessionKey, runId })).toEqual({ aborted: [runId] });
    const err = await failure(agent.call('chat.inject', { runId, text: 'late', state: 'final' }));
    expect(err.code).toBe('RUN_SUPERSEDED');
    expect(err.details).toMatchObject({ runId, reason: 'aborted' });
    expect((await admin.call('chat.history', { sessionKey })).messages).toEqual([]);
  });

  it('[RU2] the superseded mark survives a gateway restart', async () => {
    t = await startTestGateway({ config });
    const { admin, agent, sessionKey } = await sessionWithAgent(t);
    const { runId } = await agent.call('run.start', { sessionKey });
    await agent.call('question.request', { runId, questions: [item()] });
    await admin.call('chat.send', { sessionKey, message: 'unrelated', idempotencyKey: 'ru2-msg-0005' });
    const { dir, dbPath } = t;
    await t.close({ keepDir: true });
    t = await startTestGateway({ config, dir, dbPath });
    const again = await t.connect('agent');
    expect((await failure(again.call('chat.inject', { runId, text: 'late', state: 'final' }))).code).toBe('RUN_SUPERSEDED');
  });
});
