/**
 * E2/E11 (issue 55): how late an escalation step runs with 1,000 routed questions pending on a real gateway (a child
 * process on a SQLite file and the machine's clock) while a client keeps doing question round trips. Each step's
 * lateness is when its `question.routed` reaches an operator's socket minus the deadline stored in the question's route
 * when it was asked; both instants are this machine's wall clock. The gateway's CPU per step is its process CPU while
 * the steps fall due, less the gateway's CPU per second with the same paced round trips and no steps, measured before
 * and after them in the same run, times the window's length.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { WAIT_MIN_MS } from '../src/routing/types.ts';
import { meterCpu } from './lib/cpu.ts';
import { inParallel, startBenchGateway, type BenchGateway } from './lib/bench-gateway.ts';
import { RawClient, type EventFrame } from './lib/raw-client.ts';
import { summarize, type Summary } from './lib/stats.ts';
import { ms, pair, type Row } from './lib/table.ts';

export type LatenessFigures = {
  questions: number;
  /** Steps whose question.routed arrived; `questions` when none was lost. */
  heard: number;
  /** ms past the stored deadline, one per step heard. */
  lateness: Summary;
  /** Gateway CPU per step, the round trips' share taken out; null without /proc. */
  cpuMsPerStep: number | null;
  /** The same with the CPU per second from before the steps alone and from after them alone: the figure's noise. */
  cpuMsPerStepRange: [number, number] | null;
  /** Steps and round trips inside the CPU window; the round trips' gateway CPU each without steps. */
  windowSteps: number;
  windowTrips: number;
  /** Round trips while the steps fell due, and without steps (before and after them). */
  tripsDuring: Summary;
  tripsWithout: Summary;
  tripCpuMs: number | null;
};

/** E2's aim: a step runs at most this long after its deadline, p99. */
export const LATENESS_P99_AIM_MS = 1000;

const QUESTIONS = 1000;
/** The asks are paced over this long, so their deadlines are too. */
const SPREAD_MS = 3000;
const BASELINE_MS = 3000;
/**
 * One round trip started this often (back to back when the machine cannot keep up): a steady load on the gateway whose
 * share of the window's CPU stays near the steps' own, so taking it out leaves a figure rather than noise.
 */
const TRIP_EVERY_MS = 25;

/** An async question with an hour to live: asked by both of the routing rows. */
export const ask = (sessionKey: string) => ({ sessionKey, mode: 'async', timeoutMs: 3_600_000, questions: [{ id: 'env', header: 'Env', question: 'Where?', options: [{ label: 'A' }, { label: 'B' }] }] });

/** The agent's questions go to the operator, whose first step waits the minimum; the round trips' asker is not routed. */
const routing = {
  escalations: { bench: { steps: [{ notify: ['identity:operator'], wait: `${WAIT_MIN_MS / 1000}s` }, { notify: ['identity:operator'], wait: '24h' }], exhausted: 'keep' } },
  routes: [{ match: { agent: 'agent' }, escalation: 'bench' }],
};

type Trip = { endAt: number; ms: number };

/** question.request then question.resolve by the operator, as the round-trip row does, one every TRIP_EVERY_MS until stopped. */
async function tripLoop(g: BenchGateway, tripToken: string) {
  const operator = await RawClient.connect(g.wsUrl, g.operatorToken, 'cli', 'bench-trips-operator');
  const agent = await RawClient.connect(g.wsUrl, tripToken, 'agent', 'bench-trips-agent');
  const session = (await operator.ok('sessions.create', { title: 'Round trips', agentId: 'trips' })).session.key;
  const trips: Trip[] = [];
  let running = true;
  const done = (async () => {
    const start = performance.now();
    for (let k = 0; running; k++) {
      const ahead = start + k * TRIP_EVERY_MS - performance.now();
      if (ahead > 0) await sleep(ahead);
      const t0 = performance.now();
      const { id } = await agent.ok('question.request', ask(session));
      await operator.ok('question.resolve', { id, answers: { env: ['A'] } });
      const endAt = performance.now();
      trips.push({ endAt, ms: endAt - t0 });
    }
  })();
  return {
    between: (from: number, to: number) => trips.filter((t) => t.endAt > from && t.endAt <= to),
    stop: async () => {
      running = false;
      await done;
      operator.close();
      agent.close();
    },
  };
}

export async function measureLateness(): Promise<LatenessFigures> {
  const tripToken = `trips-${randomBytes(12).toString('hex')}`;
  const g = await startBenchGateway({ config: { routing }, moreIdentities: [{ id: 'trips', token: tripToken, role: 'agent', scopes: ['agent.run'] }] });
  try {
    const watcher = await RawClient.connect(g.wsUrl, g.operatorToken, 'cli', 'bench-watcher');
    const asker = await RawClient.connect(g.wsUrl, g.agentToken, 'agent', 'bench-asker');
    const session = (await watcher.ok('sessions.create', { title: 'Routed' })).session.key;
    const deadline = new Map<string, number>();
    const late = new Map<string, { ms: number; at: number }>();
    let allHeard: () => void = () => {};
    const heardAll = new Promise<void>((ok) => (allHeard = ok));
    watcher.onEvent = (f: EventFrame) => {
      if (f.event === 'question.requested') {
        const q = f.payload.question;
        if (q.route?.nextAtMs !== undefined) deadline.set(q.id, q.route.nextAtMs);
      } else if (f.event === 'question.routed' && f.payload.route?.step >= 1) {
        const due = deadline.get(f.payload.id);
        if (due === undefined || late.has(f.payload.id)) return;
        late.set(f.payload.id, { ms: Date.now() - due, at: performance.now() });
        if (late.size === QUESTIONS) allHeard();
      }
    };

    const trips = await tripLoop(g, tripToken);
    await sleep(1000);
    const cpuOf = async (run: () => Promise<void>) => {
      const from = performance.now();
      const end = meterCpu([g.pid], undefined);
      await run();
      return { from, to: performance.now(), cpu: end().gatewaysMs };
    };
    const before = await cpuOf(() => sleep(BASELINE_MS));

    const t0 = performance.now();
    await inParallel(QUESTIONS, 4, async (i) => {
      const wait = t0 + (i * SPREAD_MS) / QUESTIONS - performance.now();
      if (wait > 0) await sleep(wait);
      await asker.ok('question.request', ask(session));
    });
    // The window opens once the last ask is in (on a slow machine some steps may already have run: they are left out).
    const during = await cpuOf(() => Promise.race([heardAll, sleep(WAIT_MIN_MS + SPREAD_MS + 30_000)]));
    const after = await cpuOf(() => sleep(BASELINE_MS));
    await trips.stop();
    watcher.close();
    asker.close();

    const without = [...trips.between(before.from, before.to), ...trips.between(after.from, after.to)];
    const inWindow = trips.between(during.from, during.to);
    const windowSteps = [...late.values()].filter((l) => l.at > during.from && l.at <= during.to).length;
    const known = before.cpu !== null && during.cpu !== null && after.cpu !== null && windowSteps > 0;
    // The window's CPU less the paced round trips' (and the idle gateway's) CPU per second without steps: the mean of
    // both sides, and each side alone for the range.
    const rate = (w: { from: number; to: number; cpu: number | null }) => w.cpu! / (w.to - w.from);
    const perStep = (cpuPerMs: number) => (during.cpu! - (during.to - during.from) * cpuPerMs) / windowSteps;
    const tripCpuMs = known ? (before.cpu! + after.cpu!) / without.length : null;
    const sides = known ? [perStep(rate(before)), perStep(rate(after))] : [];
    return {
      questions: QUESTIONS,
      heard: late.size,
      lateness: summarize([...late.values()].map((l) => l.ms)),
      cpuMsPerStep: known ? perStep((before.cpu! + after.cpu!) / (before.to - before.from + after.to - after.from)) : null,
      cpuMsPerStepRange: known ? [Math.min(...sides), Math.max(...sides)] : null,
      windowSteps,
      windowTrips: inWindow.length,
      tripsDuring: summarize(inWindow.map((t) => t.ms)),
      tripsWithout: summarize(without.map((t) => t.ms)),
      tripCpuMs,
    };
  } finally {
    await g.close();
  }
}

export function latenessRows(f: LatenessFigures, section: string): Row[] {
  const cpu = (x: number | null) => (x === null ? 'n/a' : ms(x));
  const range = f.cpuMsPerStepRange ? ` (${ms(f.cpuMsPerStepRange[0])} to ${ms(f.cpuMsPerStepRange[1])} with the rate before or after alone)` : '';
  const all = f.heard === f.questions;
  return [
    {
      section,
      figure: `escalation step past its deadline, ${f.questions.toLocaleString('en')} pending, real clock, p50 / p99`,
      measured: pair(f.lateness.p50, f.lateness.p99),
      baseline: all ? `${f.heard} steps heard` : `only ${f.heard} of ${f.questions} steps heard`,
      ratio: '',
      aim: `p99 <= ${ms(LATENESS_P99_AIM_MS)}, every step`,
      met: all && f.lateness.p99 <= LATENESS_P99_AIM_MS,
    },
    { section, figure: '  gateway CPU per step (round trips taken out)', measured: `${cpu(f.cpuMsPerStep)}${range}`, baseline: `${f.windowSteps} steps beside ${f.windowTrips} round trips (${cpu(f.tripCpuMs)} each without steps)`, ratio: '', aim: '', met: null },
    { section, figure: '  round trip meanwhile, p50 / p99', measured: pair(f.tripsDuring.p50, f.tripsDuring.p99), baseline: `without steps ${pair(f.tripsWithout.p50, f.tripsWithout.p99)}`, ratio: '', aim: '', met: null },
  ];
}
