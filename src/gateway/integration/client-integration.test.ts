import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../client/client.ts';
import { createNodeClient } from '../../client/node.ts';
import { startGateway, type RunningGateway } from '../gateway.ts';
import { item, testConfig, tokenOf } from '../../testing/gateway-harness.ts';
import { silentLogger } from '../infra/logger.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function gateway(dbPath: string, port = 0): Promise<RunningGateway> {
  const gw = await startGateway({ port, dbPath, config: testConfig, checkFrames: true, log: silentLogger() });
  return gw;
}

function client(url: string, who: 'admin' | 'agent', id: string): GatewayClient {
  const c = createNodeClient({
    url,
    token: tokenOf(who),
    client: { id, name: 'it', mode: who === 'agent' ? 'agent' : 'ui' },
    resume: true,
    backoff: { initialMs: 50, maxMs: 200 },
  });
  cleanups.push(() => c.close());
  return c;
}

describe('with the shared GatewayClient', () => {
  it('[Q4][Q8][P7] a question round trip works, and a client resumes across a gateway restart without missing events', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'askdock-it-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'askdock.db');
    let gw = await gateway(db);
    const port = gw.port;
    cleanups.push(() => gw.close());

    const operator = client(gw.url, 'admin', 'ui-tab');
    const agent = client(gw.url, 'agent', 'agent-sdk');
    await Promise.all([operator.start(), agent.start()]);
    const requested: string[] = [];
    operator.on('question.requested', (p) => {
      requested.push(p.question.id);
      if (p.question.questions[0].id === 'env') void operator.request('question.resolve', { id: p.question.id, answers: { env: ['production'] } });
    });

    const { id } = await agent.request('question.request', { questions: [item()] });
    expect(await agent.request('question.waitAnswer', { id })).toEqual({ status: 'answered', answers: { env: ['Production'] }, receipt: expect.any(String) });

    await gw.close();
    gw = await gateway(db, port);
    await operator.ready(10_000);
    await agent.ready(10_000);
    const second = await agent.request('question.request', { questions: [item({ id: 'size', header: 'Size' })] });
    await expect.poll(() => requested).toEqual([id, second.id]);
    expect(operator.hello?.snapshot.pendingQuestions.map((q) => q.id) ?? []).not.toContain(id);
  });
});
