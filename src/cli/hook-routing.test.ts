import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { hookAsks, hookFixture, startHook } from '../testing/hook-process.ts';
import { routingConfig } from '../testing/routing-gateway.ts';

/** What an MCP server asks goes to Cy; anything else a hook asks to Bo. Who was notified says which route matched. */
const config = {
  ...routingConfig,
  routing: {
    escalations: {
      'mcp-servers': { steps: [{ notify: ['identity:cy'], wait: '5m' }] },
      hooks: { steps: [{ notify: ['identity:bo'], wait: '5m' }] },
    },
    routes: [
      { match: { kind: 'elicitation' }, escalation: 'mcp-servers' },
      { match: { source: 'hook:*' }, escalation: 'hooks' },
    ],
  },
};

describe('askdock hook, routed (E1)', { timeout: 120_000 }, () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('[E1] Claude Code\'s Elicitation event is routed as kind "elicitation", its AskUserQuestion as a question from hook:claude-code', async () => {
    const requested = nextEvent(t.operator, 'question.requested');
    const hook = startHook(t, hookFixture('claude-elicitation-form'));
    const question = await hookAsks(t.operator, hook, requested);
    expect(question.route).toMatchObject({ escalation: 'mcp-servers', notified: ['cy'] });
    await t.operator.request('question.resolve', { id: question.id, answers: { username: ['alice'] } });
    expect((await hook.done).code).toBe(0);

    const asked = nextEvent(t.operator, 'question.requested');
    const ask = startHook(t, hookFixture('claude-ask-single'));
    const choice = await hookAsks(t.operator, ask, asked);
    expect(choice.route).toMatchObject({ escalation: 'hooks', notified: ['bo'] });
    await t.operator.request('question.resolve', { id: choice.id, skip: true });
    expect((await ask.done).code).toBe(0);
  });
});
