import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../client/client.ts';
import { createNodeClient } from '../client/node.ts';
import { startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { personToken, routingConfig } from '../testing/routing-gateway.ts';
import { BIN, TmuxScreen } from '../testing/tmux.ts';

/** Ana reads every session (so her TUI opens the one asked in) and answers the questions routed to her. */
const config = {
  ...routingConfig,
  identities: routingConfig.identities.map((i) => (i.id === 'ana' ? { ...i, scopes: ['operator.read' as const, 'operator.questions' as const] } : i)),
};

describe('a routed question in askdock tui (E4, E9)', { timeout: 120_000 }, () => {
  let t: TestGateway;
  let agent: GatewayClient;
  let dir: string;
  let screen: TmuxScreen | undefined;
  beforeAll(async () => {
    t = await startTestGateway({ config });
    agent = createNodeClient({ url: t.url, token: t.agentToken, client: { name: 'test-agent', mode: 'agent' } });
    await agent.start();
    dir = mkdtempSync(join(tmpdir(), 'askdock-tui-routing-'));
  });
  afterAll(async () => {
    screen?.kill();
    agent.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('[E4][E9] the prompt says who it waits for and when it moves on; key a sends "I\'m on it" and the prompt reads "Ana is on it"', async () => {
    const { session } = await t.operator.request('sessions.create', { title: 'Deploys' });
    screen = TmuxScreen.start(['node', BIN, 'tui', '--url', t.url, '--token', personToken('ana'), '--session', session.key], { cwd: dir });
    await screen.waitFor('Connected', 60_000);
    const { id } = await agent.request('question.request', {
      sessionKey: session.key,
      questions: [{ id: 'env', header: 'Env', question: 'Which environment?', options: [{ label: 'Staging' }, { label: 'Production' }] }],
      timeoutMs: 3_600_000,
    });
    await screen.waitFor('Which environment?', 60_000);
    // E9: by display name, and the step it moves on to, once routing.status has said.
    expect(await screen.waitFor(/For Ana · to ops in [45]:\d\d/)).toContain("a: I'm on it");
    screen.send(['a']);
    const after = await screen.waitFor('Ana is on it', 60_000);
    expect(after).not.toContain("a: I'm on it");
    expect(after).not.toMatch(/to ops in/);
    // The gateway holds the acknowledgement: the escalation is paused for half an hour, by Ana.
    const { question } = await t.operator.request('question.get', { id });
    expect(question.route?.ackedBy).toMatchObject({ identity: 'ana', name: 'Ana' });
  });
});
