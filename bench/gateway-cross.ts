import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { GatewayClient } from '../src/client/client.ts';
import { createNodeClient } from '../src/client/node.ts';
import { spawnGateway, type GatewayChild } from '../src/testing/gateway-child.ts';
import { benchIdentities } from './lib/bench-gateway.ts';
import { openRunSchema } from './lib/postgres-schema.ts';
import { summarize, type Summary } from './lib/stats.ts';

/** Question round trips on two gateways of one PostgreSQL database: answered on the asker's gateway, and on the other. */
export type CrossGateway = { same: Summary; cross: Summary; database: string };

const QUESTION = [{ id: 'env', header: 'Environment', question: 'Where to?', options: [{ label: 'Staging' }, { label: 'Production' }] }];

/**
 * Two `askdock gateway` processes on one database (ASKDOCK_BENCH_POSTGRES_URL, else a throwaway server). One agent on
 * gateway A asks; an operator on A answers the questions of one session, an operator on B those of another. The two
 * kinds alternate, one round trip at a time, so both see the same machine load. A round trip: question.request ->
 * question.requested at the answering operator -> question.resolve -> the agent's question.waitAnswer returns.
 */
export async function measureCrossGateway(roundTrips: number): Promise<CrossGateway> {
  const given = process.env.ASKDOCK_BENCH_POSTGRES_URL;
  const schema = await openRunSchema(given, 'askdock_bench');
  const dir = mkdtempSync(join(tmpdir(), 'askdock-bench-cross-'));
  const { config, operatorToken, agentToken } = benchIdentities();
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  const gateways: GatewayChild[] = [];
  const clients: GatewayClient[] = [];
  const killAll = () => gateways.forEach((g) => g.proc.kill('SIGKILL'));
  process.once('exit', killAll);
  try {
    for (let i = 0; i < 2; i++) gateways.push(await spawnGateway(['--port', '0', '--db', schema.url, '--config', join(dir, 'config.json')], 60_000));
    const client = async (gateway: GatewayChild, token: string, name: string) => {
      const c = createNodeClient({ url: gateway.wsUrl, token, client: { name, mode: 'cli' } });
      clients.push(c);
      await c.start();
      return c;
    };
    const agent = await client(gateways[0], agentToken, 'bench-agent');
    const sameOp = await client(gateways[0], operatorToken, 'bench-operator-a');
    const crossOp = await client(gateways[1], operatorToken, 'bench-operator-b');
    const sameSession = (await sameOp.request('sessions.create', { title: 'same gateway', agentId: 'agent' })).session.key;
    const crossSession = (await sameOp.request('sessions.create', { title: 'other gateway', agentId: 'agent' })).session.key;
    const answer = (op: GatewayClient, sessionKey: string) =>
      op.on('question.requested', ({ question }) => {
        if (question.sessionKey === sessionKey) void op.request('question.resolve', { id: question.id, answers: { env: ['Staging'] } }).catch(() => undefined);
      });
    answer(sameOp, sameSession);
    answer(crossOp, crossSession);
    const once = async (sessionKey: string) => {
      const t0 = performance.now();
      const { id } = await agent.request('question.request', { sessionKey, questions: QUESTION });
      const result = await agent.request('question.waitAnswer', { id });
      if (result.status !== 'answered') throw new Error(`round trip ended ${result.status}`);
      return performance.now() - t0;
    };
    // Warm-up: connections, prepared caches, both LISTEN paths.
    for (let i = 0; i < 10; i++) await once(i % 2 ? crossSession : sameSession);
    const same: number[] = [];
    const cross: number[] = [];
    for (let i = 0; i < roundTrips; i++) {
      same.push(await once(sameSession));
      cross.push(await once(crossSession));
    }
    return { same: summarize(same), cross: summarize(cross), database: given ? 'ASKDOCK_BENCH_POSTGRES_URL' : 'throwaway PostgreSQL 15' };
  } finally {
    for (const c of clients) c.close();
    process.off('exit', killAll);
    for (const g of gateways) g.proc.kill('SIGTERM');
    await Promise.all(gateways.map((g) => g.exit));
    rmSync(dir, { recursive: true, force: true });
    await schema.drop().catch(() => undefined);
  }
}
