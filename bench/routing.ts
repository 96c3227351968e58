/**
 * E1/E2 (issue 55): what routing costs. The question round trip (question.request, then question.resolve by the person
 * it is routed to) on a gateway with a routing block beside one without, in the same run, in alternating blocks; and
 * the escalation duty's cost per step with 1 and with 1,000 other routed questions pending: process CPU and the question
 * records the step read (flat when the duty reads due steps by their deadline rather than every pending question); and
 * how late a step runs on a real clock with 1,000 pending beside round trips (routing-lateness.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startGateway } from '../src/gateway/gateway.ts';
import { silentLogger } from '../src/gateway/infra/logger.ts';
import { openSqliteStore } from '../src/gateway/store/sqlite.ts';
import type { StoredQuestion } from '../src/gateway/store/types.ts';
import { addRoutedCopies, countingStore } from '../src/testing/counting-store.ts';
import { FakeClock } from '../src/testing/fake-clock.ts';
import { meterCpu } from './lib/cpu.ts';
import { ask, latenessRows, measureLateness, type LatenessFigures } from './routing-lateness.ts';
import { benchIdentities, startBenchGateway } from './lib/bench-gateway.ts';
import { RawClient, type EventFrame } from './lib/raw-client.ts';
import { ratio, summarize, type Summary } from './lib/stats.ts';
import { ms, pair, times, type Row } from './lib/table.ts';

/** `waiting`: routed questions pending beside the `steps` that fall due. */
export type DutyFigures = { waiting: number; steps: number; cpuMsPerStep: number; readPerStep: number };
export type RoutingFigures = { routed: Summary; plain: Summary; routedCpuMs: number | null; plainCpuMs: number | null; duty: DutyFigures[]; lateness: LatenessFigures };

/** Every question to the operator for an hour, then kept: a route chosen and a first step started on each request. */
function routingBlock(firstWait: string) {
  return {
    escalations: { all: { steps: [{ notify: ['identity:operator'], wait: firstWait }, { notify: ['identity:operator'], wait: '24h' }], exhausted: 'keep' } },
    routes: [{ match: { kind: ['question', 'approval', 'elicitation'] }, escalation: 'all' }],
  };
}

async function roundTrips(perKind: number, block: number): Promise<Pick<RoutingFigures, 'routed' | 'plain' | 'routedCpuMs' | 'plainCpuMs'>> {
  const gateways = { routed: await startBenchGateway({ config: { routing: routingBlock('1h') } }), plain: await startBenchGateway() };
  try {
    const sides = {} as Record<'routed' | 'plain', { operator: RawClient; agent: RawClient; session: string }>;
    for (const kind of ['routed', 'plain'] as const) {
      const g = gateways[kind];
      const operator = await RawClient.connect(g.wsUrl, g.operatorToken, 'cli');
      const agent = await RawClient.connect(g.wsUrl, g.agentToken, 'agent');
      sides[kind] = { operator, agent, session: (await operator.ok('sessions.create', { title: 'Routing bench' })).session.key };
    }
    const once = async (kind: 'routed' | 'plain', out: number[]) => {
      const { operator, agent, session } = sides[kind];
      const t0 = performance.now();
      const { id } = await agent.ok('question.request', ask(session));
      await operator.ok('question.resolve', { id, answers: { env: ['A'] } });
      out.push(performance.now() - t0);
    };
    for (let i = 0; i < 20; i++) for (const kind of ['routed', 'plain'] as const) await once(kind, []);
    const times = { routed: [] as number[], plain: [] as number[] };
    const cpu = { routed: 0, plain: 0, known: true };
    for (let done = 0; done < perKind; done += block) {
      for (const kind of ['routed', 'plain'] as const) {
        const end = meterCpu([gateways[kind].pid], undefined);
        for (let i = 0; i < block; i++) await once(kind, times[kind]);
        const used = end().gatewaysMs;
        if (used === null) cpu.known = false;
        else cpu[kind] += used;
      }
    }
    for (const s of Object.values(sides)) (s.operator.close(), s.agent.close());
    return {
      routed: summarize(times.routed),
      plain: summarize(times.plain),
      routedCpuMs: cpu.known ? cpu.routed / times.routed.length : null,
      plainCpuMs: cpu.known ? cpu.plain / times.plain.length : null,
    };
  } finally {
    await Promise.all(Object.values(gateways).map((g) => g.close()));
  }
}

/**
 * One gateway in this process on a fake clock and a SQLite file: `steps` routed questions fall due one a second apart
 * while `waiting` more wait a day; each tick moves the clock a second and waits for that step's question.routed.
 */
async function dutyPerStep(waiting: number, steps: number): Promise<DutyFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-bench-routing-'));
  const inner = openSqliteStore(join(dir, 'bench.db'));
  const count = countingStore(inner);
  const clock = new FakeClock();
  const { config, operatorToken, agentToken } = benchIdentities();
  const gw = await startGateway({ port: 0, config: { ...config, routing: routingBlock('5m') }, store: count.store, clock, log: silentLogger(), uiDir: join(dir, 'no-ui'), tickIntervalMs: 3_600_000, auditSigning: false });
  try {
    const operator = await RawClient.connect(gw.wsUrl, operatorToken, 'cli');
    const agent = await RawClient.connect(gw.wsUrl, agentToken, 'agent');
    const session = (await operator.ok('sessions.create', { title: 'Duty bench' })).session.key;
    const { id } = await agent.ok('question.request', ask(session));
    const asked = (await inner.getQuestion(id)) as StoredQuestion;
    const first = asked.route!.nextAtMs as number;
    // The asked one falls due first, `steps - 1` copies one second apart after it; the others wait a day.
    const due = [id, ...(await addRoutedCopies(inner, asked, steps, (i) => first + i * 1000))];
    await addRoutedCopies(inner, { ...asked, id: `${id}-waiting` }, waiting + 1, () => first + 86_400_000);
    let heard: ((id: string) => void) | null = null;
    operator.onEvent = (f: EventFrame) => {
      if (f.event === 'question.routed') heard?.(f.payload.id as string);
    };
    clock.advance(first - clock.now() - 1000);
    count.reset();
    const cpu0 = process.cpuUsage();
    for (const qid of due) {
      const stepped = new Promise<void>((ok) => (heard = (got) => got === qid && ok()));
      clock.advance(1000);
      await stepped;
    }
    const used = process.cpuUsage(cpu0);
    operator.close();
    agent.close();
    return { waiting, steps, cpuMsPerStep: (used.user + used.system) / 1000 / steps, readPerStep: count.examined() / steps };
  } finally {
    await gw.close();
    await inner.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureRouting(perKind = 300, block = 50, steps = 50): Promise<RoutingFigures> {
  const trips = await roundTrips(perKind, block);
  // Twice each, alternating, and the lower CPU kept: the machine's load falls on both alike.
  const duty: DutyFigures[] = [];
  const runs: Record<number, DutyFigures[]> = { 1: [], 1000: [] };
  for (let i = 0; i < 2; i++) for (const waiting of [1, 1000]) runs[waiting].push(await dutyPerStep(waiting, steps));
  for (const waiting of [1, 1000]) duty.push(runs[waiting].reduce((a, b) => (a.cpuMsPerStep <= b.cpuMsPerStep ? a : b)));
  return { ...trips, duty, lateness: await measureLateness() };
}

/** E2 (issue 55): the duty's CPU per step may grow at most this much from 1 to 1,000 other routed questions pending. */
export const ROUTING_DUTY_FLAT = 1.5;

export function routingRows(f: RoutingFigures): Row[] {
  const s = 'Routing (one escalation for every question, SQLite)';
  const cpu = (x: number | null) => (x === null ? 'n/a' : ms(x));
  const [few, many] = f.duty;
  const growth = ratio(many.cpuMsPerStep, few.cpuMsPerStep);
  return [
    { section: s, figure: 'question.request + question.resolve, routed, p50 / p99', measured: pair(f.routed.p50, f.routed.p99), baseline: `no routing ${pair(f.plain.p50, f.plain.p99)}`, ratio: times(ratio(f.routed.p50, f.plain.p50)), aim: '', met: null },
    { section: s, figure: '  gateway CPU per round trip', measured: cpu(f.routedCpuMs), baseline: `no routing ${cpu(f.plainCpuMs)}`, ratio: f.routedCpuMs !== null && f.plainCpuMs !== null ? times(ratio(f.routedCpuMs, f.plainCpuMs)) : 'n/a', aim: '', met: null },
    { section: s, figure: `escalation step, CPU (gateway and its client) with ${many.waiting.toLocaleString('en')} others pending`, measured: ms(many.cpuMsPerStep), baseline: `${few.waiting} pending ${ms(few.cpuMsPerStep)}`, ratio: times(growth), aim: `<= ${ROUTING_DUTY_FLAT}x (flat)`, met: growth <= ROUTING_DUTY_FLAT },
    { section: s, figure: '  question records read per step', measured: String(many.readPerStep), baseline: `${few.waiting} pending ${few.readPerStep}`, ratio: times(ratio(many.readPerStep, few.readPerStep)), aim: 'equal', met: many.readPerStep === few.readPerStep },
    ...latenessRows(f.lateness, s),
  ];
}
