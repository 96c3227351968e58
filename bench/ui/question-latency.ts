import { writeFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { connect, type Agent } from '../../src/agent/sdk.ts';
import type { GatewayClient } from '../../src/client/client.ts';
import { connectOperator, type BenchGateway } from '../lib/bench-gateway.ts';
import { summarize, type Summary } from '../lib/stats.ts';
import { newBenchContext, nodeNow, openSession, pageClock, pageIdle, signalFromPage, type PageClock } from './page-tools.ts';

export type QuestionPath = {
  /** agent question.request sent -> the question's text committed in the region "Questions" / the next frame after it. */
  toDom: Summary;
  /** ... -> the end of the frame after the commit: a user-blocking task posted from its requestAnimationFrame. */
  toPaint: Summary;
  /** ... -> the first ordinary task after that frame (a MessageChannel message posted from its rAF): the frame plus
   * whatever work the page had queued by then (a socket frame, a timer), which runs before it but does not hold the frame. */
  toNextTask: Summary;
  /** agent question.request sent -> the frame that first showed the question's wording (Element Timing). */
  toRendered: Summary;
  /** agent question.request sent -> its `question.requested` frame handed to the page's WebSocket. */
  toSocket: Summary;
  /** The browser's share of the question: its frame handed to the page's WebSocket -> the dock painted, per question. */
  socketToPaint: Summary;
  /** Ctrl+Enter keydown on the dock -> the agent's askUser resolved. */
  answer: Summary;
  /** Ctrl+Enter keydown -> the page's question.resolve frame handed to its WebSocket. */
  answerToSocket: Summary;
  /** The same two legs with a Node operator on the shared client instead of the browser: the bare protocol path. */
  protocolToEvent: Summary;
  protocolAnswer: Summary;
  protocolRoundTrip: Summary;
  clock: PageClock & { driftMs: number };
};

const TEXT = (n: number) => `Bench question ${n}: which one?`;
const ask = (agent: Agent, sessionKey: string, n: number) =>
  agent.askUser({ questions: [{ id: 'pick', header: 'Bench', question: TEXT(n), options: [{ label: 'Alpha' }, { label: 'Beta' }] }] }, { sessionKey });

/** In the page before its scripts: when each numbered question's frame reaches the socket, ahead of the app's own listener. */
function installSocketProbe() {
  const w = window as unknown as Record<string, unknown>;
  const arrived: Record<number, number> = {};
  const resolves: number[] = [];
  /** Every frame the page's socket takes in: when, and its event's name (or `res`), for BENCH_QUESTION_SAMPLES. */
  const frames: [number, string][] = [];
  w.benchFrames = frames;
  w.benchArrived = arrived;
  w.benchResolves = resolves;
  const Native = WebSocket;
  w.WebSocket = class extends Native {
    send(data: Parameters<WebSocket['send']>[0]) {
      if (typeof data === 'string' && data.includes('"method":"question.resolve"')) resolves.push(performance.timeOrigin + performance.now());
      super.send(data);
    }
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (e) => {
        const text = String(e.data);
        const at = performance.timeOrigin + performance.now();
        frames.push([at, /^\{"type":"event","event":"([^"]+)"/.exec(text)?.[1] ?? 'res']);
        const n = Number(/"question\.requested".*Bench question (\d+):/.exec(text)?.[1] ?? NaN);
        if (!Number.isNaN(n) && !(n in arrived)) arrived[n] = at;
      });
    }
  };
}

/** In the page: first time each numbered question shows in the dock, the frame after, and each Ctrl+Enter. */
function installObserver() {
  const w = window as unknown as Record<string, unknown> & { benchShown(n: number): void };
  const seen: Record<number, number> = {};
  const painted: Record<number, number> = {};
  const nextTask: Record<number, number> = {};
  const rendered: Record<number, number> = {};
  const submitted: number[] = [];
  w.benchPath = { seen, painted, nextTask, rendered, submitted, arrived: w.benchArrived, resolves: w.benchResolves };
  const now = () => performance.timeOrigin + performance.now();
  // The browser's own word on when the question's wording was first on screen: Element Timing's render time of the
  // text the dock marks `elementtiming`, the frame's presentation (or paint) time.
  type ElementEntry = PerformanceEntry & { renderTime: number; element: Element | null };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as ElementEntry[]) {
      const n = Number(/Bench question (\d+):/.exec(entry.element?.textContent ?? '')?.[1] ?? NaN);
      if (!Number.isNaN(n) && !(n in rendered) && entry.renderTime > 0) rendered[n] = performance.timeOrigin + entry.renderTime;
    }
  }).observe({ type: 'element', buffered: true });
  // The dock's own box holds the region whenever it shows: watching it alone keeps the observer (a record for every
  // change, a read of the region after each) off the rest of the page's work, which a real tab does without one.
  const dock = document.querySelector('.qd-dock') ?? document.body;
  new MutationObserver(() => {
    const region = dock.querySelector('[role="region"][aria-label="Questions"]');
    const n = Number(/Bench question (\d+):/.exec(region?.textContent ?? '')?.[1] ?? NaN);
    if (Number.isNaN(n) || n in seen) return;
    seen[n] = now();
    // The frame after the commit is when it can be on screen. A user-blocking task posted from its rAF runs as soon as
    // that frame is done; a MessageChannel message posted there runs after the ordinary tasks already queued (the
    // session.updated frame that came with the question, a timer), so it marks the frame plus them.
    requestAnimationFrame(() => {
      const postTask = (globalThis as { scheduler?: { postTask(cb: () => void, o: { priority: string }): Promise<void> } }).scheduler?.postTask;
      if (postTask) void postTask.call((globalThis as unknown as { scheduler: unknown }).scheduler, () => (painted[n] = now()), { priority: 'user-blocking' });
      const channel = new MessageChannel();
      channel.port1.onmessage = () => ((nextTask[n] = now()), (painted[n] ??= nextTask[n]), w.benchShown(n));
      channel.port2.postMessage(null);
    });
  }).observe(dock, { subtree: true, childList: true, characterData: true });
  addEventListener('keydown', (e) => e.key === 'Enter' && e.ctrlKey && submitted.push(performance.timeOrigin + e.timeStamp), true);
}

type Sample = { sent: number; done: number };

/**
 * `BENCH_QUESTION_SAMPLES=file`: one line per browser question, page times in ms from the question's frame at the socket
 * (its commit in the dock, its painted mark) with the page's socket frames that came within 30 ms either side (section 84:
 * the slow tail is the questions a second frame followed within a few ms).
 */
function writeQuestionSamples(file: string, marks: { n: number; arrived: number; seen: number; painted: number }[], frames: [number, string][]): void {
  const ms = (t: number) => Math.round(t * 10) / 10;
  const lines = marks.map(({ n, arrived, seen, painted }) => {
    const near = frames.filter(([t]) => Math.abs(t - arrived) <= 30 && t !== arrived).map(([t, name]) => [ms(t - arrived), name]);
    return JSON.stringify({ n, committed: ms(seen - arrived), painted: ms(painted - arrived), near });
  });
  writeFileSync(file, lines.join('\n') + '\n');
}


async function browserRound(page: Page, agent: Agent, sessionKey: string, n: number, shown: () => Promise<unknown>): Promise<Sample> {
  // A person reads before the next question comes: the page finishes what came before it (the previous answer, and
  // the events of the Node operator's rounds, which this tab also receives) before the next one is asked.
  await pageIdle(page);
  const next = shown();
  const sent = nodeNow();
  // Timed where askUser resolves: the key presses' own round trips to the page must not count as the answer's.
  const answered = ask(agent, sessionKey, n).then((result) => ({ result, done: nodeNow() }));
  await next;
  await page.keyboard.press('1');
  // ...and sees the choice before sending it: the answer's time starts on a page done with showing the pick.
  await pageIdle(page);
  await page.keyboard.press('Control+Enter');
  const { result, done } = await answered;
  if (result.status !== 'answered') throw new Error(`question ${n} ended ${JSON.stringify(result)}`);
  return { sent, done };
}

type ProtocolSample = { sent: number; event: number; resolveSent: number; done: number };

async function protocolRound(page: Page, operator: GatewayClient, agent: Agent, sessionKey: string, n: number): Promise<ProtocolSample> {
  // The tab sees these questions too: its work on the previous one must not run into this one's time either.
  await pageIdle(page);
  let event = 0;
  let resolveSent = 0;
  const off = operator.on('question.requested', ({ question }) => {
    if (question.sessionKey !== sessionKey) return;
    event = nodeNow();
    resolveSent = nodeNow();
    void operator.request('question.resolve', { id: question.id, answers: { pick: ['Alpha'] } });
  });
  const sent = nodeNow();
  await ask(agent, sessionKey, n);
  const done = nodeNow();
  off();
  return { sent, event, resolveSent, done };
}

/** Question-to-screen and answer-to-agent through Chromium, beside the same path with a Node operator, interleaved in blocks. */
export async function measureQuestionPath(browser: Browser, gateway: BenchGateway, count = 200, warmup = 10): Promise<QuestionPath> {
  const operator = await connectOperator(gateway);
  const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'bench-agent' });
  const uiSession = (await operator.request('sessions.create', { title: 'Question path' })).session.key;
  const protoSession = (await operator.request('sessions.create', { title: 'Protocol path' })).session.key;
  const context = await newBenchContext(browser);
  try {
    await context.addInitScript(installSocketProbe);
    const page = await openSession(context, gateway, uiSession);
    const shown = await signalFromPage(page, 'benchShown');
    await page.evaluate(installObserver);
    const browserSamples: (Sample & { n: number })[] = [];
    const protocolSamples: ProtocolSample[] = [];
    const block = 20;
    const before = await pageClock(page);
    for (let n = 0; n < warmup; n++) {
      await browserRound(page, agent, uiSession, n, shown);
      await protocolRound(page, operator, agent, protoSession, n);
    }
    for (let start = warmup; start < warmup + count; start += block) {
      for (let n = start; n < Math.min(start + block, warmup + count); n++) browserSamples.push({ n, ...(await browserRound(page, agent, uiSession, n, shown)) });
      for (let n = start; n < Math.min(start + block, warmup + count); n++) protocolSamples.push(await protocolRound(page, operator, agent, protoSession, n));
    }
    type Marks = { seen: Record<number, number>; painted: Record<number, number>; nextTask: Record<number, number>; rendered: Record<number, number>; arrived: Record<number, number>; submitted: number[]; resolves: number[] };
    const { seen, painted, nextTask, rendered, arrived, submitted, resolves } = await page.evaluate(() => (window as unknown as { benchPath: Marks }).benchPath);
    const after = await pageClock(page);
    const clock = { offsetMs: (before.offsetMs + after.offsetMs) / 2, uncertaintyMs: Math.max(before.uncertaintyMs, after.uncertaintyMs) };
    // Page times converted to this process's clock; the warm-up questions were answered first, so their keys come first.
    const toNode = (t: number) => t - clock.offsetMs;
    if (process.env.BENCH_QUESTION_SAMPLES) {
      const frames = await page.evaluate(() => (window as unknown as { benchFrames: [number, string][] }).benchFrames);
      writeQuestionSamples(process.env.BENCH_QUESTION_SAMPLES, browserSamples.map((s) => ({ n: s.n, arrived: arrived[s.n], seen: seen[s.n], painted: painted[s.n] })), frames);
    }
    const keys = submitted.slice(warmup);
    const sends = resolves.slice(warmup);
    return {
      toSocket: summarize(browserSamples.map((s) => toNode(arrived[s.n]) - s.sent)),
      socketToPaint: summarize(browserSamples.map((s) => painted[s.n] - arrived[s.n])),
      toDom: summarize(browserSamples.map((s) => toNode(seen[s.n]) - s.sent)),
      toPaint: summarize(browserSamples.map((s) => toNode(painted[s.n]) - s.sent)),
      toNextTask: summarize(browserSamples.map((s) => toNode(nextTask[s.n]) - s.sent)),
      toRendered: summarize(browserSamples.filter((s) => s.n in rendered).map((s) => toNode(rendered[s.n]) - s.sent)),
      answer: summarize(browserSamples.map((s, i) => s.done - toNode(keys[i]))),
      answerToSocket: summarize(browserSamples.map((_, i) => sends[i] - keys[i])),
      protocolToEvent: summarize(protocolSamples.map((s) => s.event - s.sent)),
      protocolAnswer: summarize(protocolSamples.map((s) => s.done - s.resolveSent)),
      protocolRoundTrip: summarize(protocolSamples.map((s) => s.done - s.sent)),
      clock: { ...clock, driftMs: after.offsetMs - before.offsetMs },
    };
  } finally {
    await context.close();
    agent.close();
    operator.close();
  }
}
