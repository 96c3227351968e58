import type { PermissionUpdate } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askdockCanUseTool } from './can-use-tool.ts';
import { fastClock, nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';

const SUGGESTIONS: PermissionUpdate[] = [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }], behavior: 'allow', destination: 'session' }];
const options = (signal: AbortSignal, suggestions?: PermissionUpdate[]) => ({ signal, toolUseID: 'toolu_01', requestId: 'req_1', ...(suggestions ? { suggestions } : {}) });

describe('askdockCanUseTool, the Claude Agent SDK callback', { timeout: 60_000 }, () => {
  let t: TestGateway;
  let canUseTool: ReturnType<typeof askdockCanUseTool>;
  beforeAll(async () => {
    t = await startTestGateway();
    canUseTool = askdockCanUseTool({ url: t.url, token: t.agentToken, cwd: '/home/dev/shop' });
  });
  afterAll(async () => {
    canUseTool?.close();
    await t?.close();
  });

  it('[X4][G4] an approval goes to the gateway as agent sdk; "Always allow in this session" allows with no rule written into the SDK\'s settings (G5)', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const input = { command: 'npm test -- --run', description: 'Run the tests' };
    const result = canUseTool('Bash', input, options(new AbortController().signal, SUGGESTIONS));
    const { question } = await requested;
    expect(question.questions[0]).toMatchObject({ id: 'approval', kind: 'approval' });
    const labels = question.questions[0].options.map((o) => o.label);
    expect(labels.slice(0, 2)).toEqual(['Allow', 'Deny']);
    expect(labels).toContain('Always allow in this session');
    const { sessions } = await t.operator.request('sessions.list', {});
    expect(sessions.find((s) => s.key === question.sessionKey)?.title).toBe('Claude Agent SDK · shop');
    await t.operator.request('question.resolve', { id: question.id, answers: { approval: ['Always allow in this session'] } });
    expect(await result).toEqual({ behavior: 'allow', updatedInput: input, toolUseID: 'toolu_01' });
    // The grant's rule (the SDK's suggestion) now allows the same command at once, with nobody asked.
    expect(await canUseTool('Bash', input, options(new AbortController().signal))).toEqual({ behavior: 'allow', updatedInput: input, toolUseID: 'toolu_01' });
  });

  it('[X4][Q12] an approval is asked as an approval question, and the answer a person types in any case is read as the decision', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const result = canUseTool('Bash', { command: 'ls' }, options(new AbortController().signal));
    const { question } = await requested;
    expect(question.questions[0]).toMatchObject({ id: 'approval', kind: 'approval' });
    await t.operator.request('question.resolve', { id: question.id, answers: { approval: ['allow'] } });
    expect(await result).toEqual({ behavior: 'allow', updatedInput: { command: 'ls' }, toolUseID: 'toolu_01' });
  });

  it('[X4] Other\'s text is a deny with that message', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const result = canUseTool('Write', { file_path: '/home/dev/shop/a.txt', content: 'a' }, options(new AbortController().signal));
    const { question } = await requested;
    await t.operator.request('question.resolve', { id: question.id, answers: { approval: ['Write it to b.txt instead'] } });
    expect(await result).toEqual({ behavior: 'deny', message: 'Write it to b.txt instead', toolUseID: 'toolu_01' });
  });

  it('[X4][X3] AskUserQuestion is answered with updatedInput in Claude Code\'s form', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const input = { questions: [{ question: 'Which color?', header: 'Color', options: [{ label: 'Red', description: 'r' }, { label: 'Blue', description: 'b' }], multiSelect: false }] };
    const result = canUseTool('AskUserQuestion', input, options(new AbortController().signal));
    const { question } = await requested;
    await t.operator.request('question.resolve', { id: question.id, answers: { q1: ['Red'] } });
    expect(await result).toEqual({ behavior: 'allow', updatedInput: { ...input, answers: { 'Which color?': 'Red' } }, toolUseID: 'toolu_01' });
  });

  it('[X4][T5] the SDK\'s abort signal cancels the question', async () => {
    const controller = new AbortController();
    const requested = nextEvent(t.operator, 'question.requested');
    const result = canUseTool('Bash', { command: 'rm -rf dist' }, options(controller.signal));
    result.catch(() => undefined);
    const { question } = await requested;
    const resolved = nextEvent(t.operator, 'question.resolved', (p) => p.id === question.id);
    controller.abort();
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
    expect(await resolved).toMatchObject({ status: 'cancelled' });
  });
});

describe('askdockCanUseTool without an answer', { timeout: 60_000 }, () => {
  it('[X4] no answer in time denies and tells the model why; nothing is allowed by default', async () => {
    const t = await startTestGateway({ clock: fastClock(100) });
    const canUseTool = askdockCanUseTool({ url: t.url, token: t.agentToken, timeoutSeconds: 30 });
    try {
      const result = await canUseTool('Bash', { command: 'ls' }, options(new AbortController().signal));
      expect(result).toEqual({ behavior: 'deny', message: 'No answer in askdock (expired); the tool was not run.', toolUseID: 'toolu_01' });
    } finally {
      canUseTool.close();
      await t.close();
    }
  });
});
