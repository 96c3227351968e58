import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { hookAsks, hookFixture, startHook } from '../testing/hook-process.ts';
import { personToken, routingConfig } from '../testing/routing-gateway.ts';
import { createNodeClient } from '../client/node.ts';

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

/** Approvals need Allow from Ana and Bo (E5); the policy asks about everything. */
const quorumConfig = {
  ...routingConfig,
  approvals: { rules: [], unmatched: 'ask' as const },
  routing: {
    escalations: { review: { steps: [{ notify: ['identity:ana', 'identity:bo'], wait: '5m' }] } },
    routes: [{ match: { kind: 'approval' as const }, escalation: 'review', quorum: 2 }],
  },
};

/** Codex's PreToolUse for apply_patch of one file. */
const codexPatch = JSON.stringify({
  ...JSON.parse(hookFixture('codex-bash')),
  hook_event_name: 'PreToolUse',
  tool_name: 'apply_patch',
  tool_input: { command: ['*** Begin Patch', '*** Add File: src/a.ts', '+hello', '*** End Patch', ''].join('\n') },
});

describe('askdock hook, a routed two-person approval (E8)', { timeout: 120_000 }, () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: quorumConfig as never });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('[E8][E5] the agent reads who approved: both people of the quorum, by display name', async () => {
    const people = await Promise.all((['ana', 'bo'] as const).map(async (id) => {
      const c = createNodeClient({ url: t.url, token: personToken(id), client: { name: id, mode: 'ui' } });
      await c.start();
      return c;
    }));
    try {
      const requested = nextEvent(t.operator, 'question.requested');
      const hook = startHook(t, codexPatch);
      const question = await hookAsks(t.operator, hook, requested);
      expect(question.route).toMatchObject({ notified: ['ana', 'bo'], quorum: { needed: 2 } });
      expect(await people[0].request('question.resolve', { id: question.id, answers: { approval: ['Allow'] } })).toMatchObject({ status: 'pending' });
      await people[1].request('question.resolve', { id: question.id, answers: { approval: ['Allow'] } });
      const out = await hook.done;
      expect(JSON.parse(out.stdout).hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'allow', additionalContext: 'approved by Ana and Bo' });
    } finally {
      people.forEach((c) => c.close());
    }
  });
});
