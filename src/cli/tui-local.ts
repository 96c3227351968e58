import { startDemoAgent, type DemoAgent } from '../agent/demo-agent.ts';
import { connect, type Agent } from '../agent/sdk.ts';
import { randomToken } from '../gateway/auth.ts';
import { startGateway, type RunningGateway } from '../gateway/gateway.ts';
import { createLogger } from '../gateway/infra/logger.ts';
import { createMemoryStore } from '../gateway/store/memory.ts';

export type LocalGateway = { wsUrl: string; operatorToken: string; close(): Promise<void> };

/**
 * V7: a gateway in this process on the memory store, with the demo agent. Identities are made up in memory and
 * the store never touches a file, so nothing is written to disk; everything is gone when the process ends.
 */
export async function startLocalGateway(): Promise<LocalGateway> {
  const operatorToken = randomToken();
  const agentToken = randomToken();
  const store = createMemoryStore();
  const quiet = () => undefined;
  const gateway: RunningGateway = await startGateway({
    host: '127.0.0.1',
    port: 0,
    store,
    // Log lines would draw over the screen: the local gateway keeps quiet.
    log: createLogger({ level: 'silent' }),
    announce: quiet,
    config: {
      identities: [
        { id: 'you', token: operatorToken, role: 'operator', scopes: ['operator.admin'] },
        { id: 'demo-agent', token: agentToken, role: 'agent', scopes: ['agent.run'] },
      ],
    },
  });
  let agent: Agent | undefined;
  let demo: DemoAgent | undefined;
  try {
    agent = await connect({ url: gateway.wsUrl, token: agentToken, name: 'askdock-demo-agent' });
    demo = await startDemoAgent({ agent, log: quiet });
  } catch (err) {
    agent?.close();
    await gateway.close();
    await store.close();
    throw err;
  }
  return {
    wsUrl: gateway.wsUrl,
    operatorToken,
    async close() {
      await demo?.close();
      agent?.close();
      await gateway.close();
      await store.close();
    },
  };
}
