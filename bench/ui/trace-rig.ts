import type { Browser } from '@playwright/test';
import { connect, type Agent } from '../../src/agent/sdk.ts';
import type { GatewayClient } from '../../src/client/client.ts';
import { connectOperator, startBenchGateway, type BenchGateway } from '../lib/bench-gateway.ts';
import { launchChromium } from '../lib/chromium.ts';

export type TraceRig = { gateway: BenchGateway; browser: Browser; operator: GatewayClient; agent: Agent; sessionKey: string };

/** What the trace scripts share: a bench gateway, Chromium, a Node operator and an agent, one session; all closed after `run`. */
export async function withTraceRig(run: (rig: TraceRig) => Promise<void>): Promise<void> {
  const gateway = await startBenchGateway();
  const browser = await launchChromium();
  const operator = await connectOperator(gateway);
  const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'bench-trace' });
  try {
    const sessionKey = (await operator.request('sessions.create', { title: 'Trace' })).session.key;
    await run({ gateway, browser, operator, agent, sessionKey });
  } finally {
    await browser.close();
    agent.close();
    operator.close();
    await gateway.close();
  }
}
