import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../src/protocol/index.ts';
import { connect } from '../src/agent/sdk.ts';
import { connectOperator, inParallel, startBenchGateway, type BenchGateway } from './lib/bench-gateway.ts';
import { round } from './lib/stats.ts';

export type GatewayMemory = {
  operators: number;
  pendingQuestions: number;
  idleRssMb: number;
  loadedRssMb: number;
  peakRssMb: number;
  deliveries: number;
  perConnectionKb: number;
};

const QUESTION = [{ id: 'env', header: 'Environment', question: 'Where should this go?', options: [{ label: 'Staging' }, { label: 'Production' }] }];

/** An operator socket that only counts `question.requested` frames: idle, as a browser tab left open would be. */
async function idleOperator(gateway: BenchGateway, n: number, counted: { frames: number }): Promise<WebSocket> {
  const ws = new WebSocket(gateway.wsUrl);
  await new Promise((ok, fail) => (ws.once('open', ok), ws.once('error', fail)));
  const needle = Buffer.from('"event":"question.requested"');
  const hello = new Promise<void>((ok, fail) => {
    ws.on('message', (data: Buffer) => {
      if (data.includes('"hello-ok"')) return ok();
      if (data.includes('"ok":false')) return fail(new Error(`operator ${n} refused: ${data}`));
      if (data.indexOf(needle) !== -1) counted.frames++;
    });
  });
  const client = { id: `bench-idle-${n}`, name: 'bench-idle', version: '0', platform: 'node', mode: 'ui' };
  ws.send(JSON.stringify({ type: 'req', id: 'c', method: 'connect', params: { minProtocol: PROTOCOL_VERSION, maxProtocol: PROTOCOL_VERSION, client, auth: { token: gateway.operatorToken } } }));
  await hello;
  return ws;
}

/** Gateway RSS, read from /proc, with `operators` idle operator connections and `questions` pending blocking questions. */
export async function measureGatewayMemory(operators = 1000, questions = 100): Promise<GatewayMemory> {
  const gateway = await startBenchGateway();
  const sockets: WebSocket[] = [];
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, gateway.rssMb())), 100);
  try {
    await sleep(1000);
    const idleRssMb = gateway.rssMb();
    const counted = { frames: 0 };
    await inParallel(operators, 25, async (i) => void sockets.push(await idleOperator(gateway, i, counted)));
    const operator = await connectOperator(gateway);
    const keys: string[] = [];
    await inParallel(questions, 10, async (i) => keys.push((await operator.request('sessions.create', { title: `memory ${i}` })).session.key));
    const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'bench-memory-agent' });
    await inParallel(questions, 10, (i) => agent.client.request('question.request', { sessionKey: keys[i], questions: QUESTION }));
    // Every idle operator hears every question before the figure is read.
    const expected = operators * questions;
    for (let waited = 0; counted.frames < expected && waited < 20_000; waited += 100) await sleep(100);
    await sleep(1500);
    const loadedRssMb = gateway.rssMb();
    agent.close();
    operator.close();
    return {
      operators,
      pendingQuestions: questions,
      idleRssMb: round(idleRssMb, 1),
      loadedRssMb: round(loadedRssMb, 1),
      peakRssMb: round(Math.max(peak, loadedRssMb), 1),
      deliveries: counted.frames,
      perConnectionKb: round(((loadedRssMb - idleRssMb) * 1024) / operators, 1),
    };
  } finally {
    clearInterval(sampler);
    for (const ws of sockets) ws.terminate();
    await gateway.close();
  }
}
