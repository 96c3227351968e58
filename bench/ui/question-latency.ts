import type { Browser, Page } from '@playwright/test';
import { connect, type Agent } from '../../src/agent/sdk.ts';
import type { GatewayClient } from '../../src/client/client.ts';
import { connectOperator, type BenchGateway } from '../lib/bench-gateway.ts';
import { summarize, type Summary } from '../lib/stats.ts';
import { newBenchContext, nodeNow, openSession, pageClock, signalFromPage, type PageClock } from './page-tools.ts';

export type QuestionPath = {
  /** agent question.request sent -> the question's text committed in the region "Questions" / the next frame after it. */
  toDom: Summary;
  toPaint: Summary;
  /** Ctrl+Enter keydown on the dock -> the agent's askUser resolved. */
  answer: Summary;
  /** The same two legs with a Node operator on the shared client instead of the browser: the bare protocol path. */
  protocolToEvent: Summary;
  protocolAnswer: Summary;
  protocolRoundTrip: Summary;
  clock: PageClock & { driftMs: number };
};

const TEXT = (n: number) => `Bench question ${n}: which one?`;
const ask = (agent: Agent, sessionKey: string, n: number) =>
  agent.askUser({ questions: [{ id: 'pick', header: 'Bench', question: TEXT(n), options: [{ label: 'Alpha' }, { label: 'Beta' }] }] }, { sessionKey });

/** In the page: first time each numbered question shows in the dock, the frame after, and each Ctrl+Enter. */
function installObserver() {
  const w = window as unknown as Record<string, unknown> & { benchShown(n: number): void };
  const seen: Record<number, number> = {};
  const painted: Record<number, number> = {};
  const submitted: number[] = [];
  w.benchPath = { seen, painted, submitted };
  const now = () => performance.timeOrigin + performance.now();
  new MutationObserver(() => {
    const region = document.querySelector('[role="region"][aria-label="Questions"]');
    const n = Number(/Bench question (\d+):/.exec(region?.textContent ?? '')?.[1] ?? NaN);
    if (Number.isNaN(n) || n in seen) return;
    seen[n] = now();
    // The frame after the commit is when it can be on screen; a message posted from rAF runs once that frame is done.
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => ((painted[n] = now()), w.benchShown(n));
      channel.port2.postMessage(null);
    });
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
  addEventListener('keydown', (e) => e.key === 'Enter' && e.ctrlKey && submitted.push(performance.timeOrigin + e.timeStamp), true);
}

type Sample = { sent: number; done: number };

async function browserRound(page: Page, agent: Agent, sessionKey: string, n: number, shown: () => Promise<unknown>): Promise<Sample> {
  const next = shown();
  const sent = nodeNow();
  const answered = ask(agent, sessionKey, n);
  await next;
  await page.keyboard.press('1');
  await page.keyboard.press('Control+Enter');
  const result = await answered;
  const done = nodeNow();
  if (result.status !== 'answered') throw new Error(`question ${n} ended ${JSON.stringify(result)}`);
  return { sent, done };
}

type ProtocolSample = { sent: number; event: number; resolveSent: number; done: number };

async function protocolRound(operator: GatewayClient, agent: Agent, sessionKey: string, n: number): Promise<ProtocolSample> {
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
    const page = await openSession(context, gateway, uiSession);
    const shown = await signalFromPage(page, 'benchShown');
    await page.evaluate(installObserver);
    const browserSamples: (Sample & { n: number })[] = [];
    const protocolSamples: ProtocolSample[] = [];
    const block = 20;
    const before = await pageClock(page);
    for (let n = 0; n < warmup; n++) {
      await browserRound(page, agent, uiSession, n, shown);
      await protocolRound(operator, agent, protoSession, n);
    }
    for (let start = warmup; start < warmup + count; start += block) {
      for (let n = start; n < Math.min(start + block, warmup + count); n++) browserSamples.push({ n, ...(await browserRound(page, agent, uiSession, n, shown)) });
      for (let n = start; n < Math.min(start + block, warmup + count); n++) protocolSamples.push(await protocolRound(operator, agent, protoSession, n));
    }
    const { seen, painted, submitted } = await page.evaluate(
      () => (window as unknown as { benchPath: { seen: Record<number, number>; painted: Record<number, number>; submitted: number[] } }).benchPath,
    );
    const after = await pageClock(page);
    const clock = { offsetMs: (before.offsetMs + after.offsetMs) / 2, uncertaintyMs: Math.max(before.uncertaintyMs, after.uncertaintyMs) };
    // Page times converted to this process's clock; the warm-up questions were answered first, so their keys come first.
    const toNode = (t: number) => t - clock.offsetMs;
    const keys = submitted.slice(warmup);
    return {
      toDom: summarize(browserSamples.map((s) => toNode(seen[s.n]) - s.sent)),
      toPaint: summarize(browserSamples.map((s) => toNode(painted[s.n]) - s.sent)),
      answer: summarize(browserSamples.map((s, i) => s.done - toNode(keys[i]))),
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
