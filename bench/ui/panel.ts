import type { Browser, Page } from '@playwright/test';
import { connect, type Agent } from '../../src/agent/sdk.ts';
import type { GatewayClient } from '../../src/client/client.ts';
import { connectOperator, inParallel, type BenchGateway } from '../lib/bench-gateway.ts';
import { round, summarize, type Summary } from '../lib/stats.ts';
import { prepareKeyTarget, pressKeys, readKeypress, type Keypress } from './keypress.ts';
import { loadWholeHistory, newBenchContext, nodeNow, openSession, pageClock, scrollLogToEnd, signalFromPage, trace } from './page-tools.ts';

export type SessionFigures = {
  messages: number;
  pendingRequests: number;
  keypress: Keypress;
  /** A new agent message -> its text committed in the log "Conversation" / the frame after. */
  messageToPaint: Summary;
  heapMb: number;
  domNodes: number;
};

export type PanelFigures = { loaded: SessionFigures & { loadAllSeconds: number; lastPagesMs: number }; empty: SessionFigures };

const BLOCKING = { id: 'pick', header: 'Bench', question: 'Which one should it be?', options: [{ label: 'Alpha' }, { label: 'Beta' }, { label: 'Gamma' }] };
const asyncQuestion = (n: number) => ({ id: 'later', header: `Later ${n}`, question: `Async question ${n}?`, options: [{ label: 'Yes' }, { label: 'No' }] });
const words = 'the agent asked about the deploy target and the person answered with a short note about staging first'.split(' ');
const sentence = (i: number, n: number) => Array.from({ length: n }, (_, k) => words[(i + k) % words.length]).join(' ');

/** `count` messages, half from the operator and half from an agent run, some of them several lines long. */
async function seedMessages(operator: GatewayClient, agent: Agent, sessionKey: string, count: number): Promise<void> {
  const runId = await agent.startRun(sessionKey);
  await inParallel(count, 16, async (i) => {
    const text = `#${i} ${sentence(i, 4 + (i % 23))}` + (i % 9 === 0 ? `\n${sentence(i + 3, 12)}\n${sentence(i + 5, 7)}` : '');
    if (i % 2 === 0) await operator.request('chat.send', { sessionKey, message: text, idempotencyKey: `bench-seed-${sessionKey}-${i}` });
    else await agent.say(runId, text);
  });
  await agent.endRun(runId, 'end_turn');
}

/** Async questions first, then one blocking one, which the dock shows first (a blocking question takes priority, U6). */
async function seedRequests(agent: Agent, sessionKey: string, count: number): Promise<void> {
  for (let i = 1; i < count; i++) await agent.askUserAsync({ questions: [asyncQuestion(i)] }, { sessionKey });
  void agent.askUser({ questions: [BLOCKING] }, { sessionKey }).catch(() => undefined);
}

function installMessageProbe() {
  const w = window as unknown as Record<string, unknown> & { benchMessage(n: number): void };
  const marks: Record<number, { dom: number; paint?: number }> = {};
  w.benchMessages = marks;
  const log = document.querySelector('[role="log"][aria-label="Conversation"]')!;
  // Only the nodes that changed are read: reading the whole log on each change would cost more than what is measured.
  new MutationObserver((records) => {
    for (const node of records.flatMap((r) => [...r.addedNodes, ...(r.type === 'characterData' ? [r.target] : [])])) {
      const n = Number(/Live message (\d+)\./.exec(node.textContent ?? '')?.[1] ?? NaN);
      if (Number.isNaN(n) || n in marks) continue;
      const mark = (marks[n] = { dom: performance.timeOrigin + performance.now() } as { dom: number; paint?: number });
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => ((mark.paint = performance.timeOrigin + performance.now()), w.benchMessage(n));
        channel.port2.postMessage(null);
      });
    }
  }).observe(log, { subtree: true, childList: true, characterData: true });
}

async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return round(usedSize / 1024 / 1024, 1);
}

async function messageToPaint(page: Page, agent: Agent, sessionKey: string, count: number): Promise<Summary> {
  const shown = await signalFromPage(page, 'benchMessage');
  await page.evaluate(installMessageProbe);
  const clock = await pageClock(page);
  const runId = await agent.startRun(sessionKey);
  const sent: number[] = [];
  for (let n = 0; n < count; n++) {
    const next = shown();
    sent.push(nodeNow());
    await agent.say(runId, `Live message ${n}.`);
    await next;
    await page.waitForTimeout(20);
  }
  await agent.endRun(runId, 'end_turn');
  const marks = await page.evaluate(() => (window as unknown as { benchMessages: Record<number, { paint: number }> }).benchMessages);
  return summarize(sent.map((t, n) => marks[n].paint - clock.offsetMs - t));
}

const domNodes = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length);

/**
 * The loaded session (5,000 messages, 20 pending requests, the whole history paged in) beside an empty one with one
 * question, in two tabs at once; keypresses alternate between them in blocks so the machine's noise lands on both.
 */
export async function measurePanel(browser: Browser, gateway: BenchGateway, opts = { messages: 5000, requests: 20, presses: 200 }): Promise<PanelFigures> {
  const operator = await connectOperator(gateway);
  const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'bench-panel-agent' });
  const loadedKey = (await operator.request('sessions.create', { title: 'Loaded' })).session.key;
  const emptyKey = (await operator.request('sessions.create', { title: 'Empty' })).session.key;
  trace('seeding messages');
  await seedMessages(operator, agent, loadedKey, opts.messages);
  trace('seeding requests');
  await seedRequests(agent, loadedKey, opts.requests);
  await seedRequests(agent, emptyKey, 1);
  const contexts = [await newBenchContext(browser), await newBenchContext(browser)];
  try {
    const loadedPage = await openSession(contexts[0], gateway, loadedKey);
    const emptyPage = await openSession(contexts[1], gateway, emptyKey);
    trace('pages open; loading the whole history');
    const t0 = nodeNow();
    const pages = await loadWholeHistory(loadedPage);
    const loadAllSeconds = (nodeNow() - t0) / 1000;
    trace(`history loaded in ${pages.length} pages`);
    await scrollLogToEnd(loadedPage);
    const loaded = await prepareKeyTarget(loadedPage);
    const empty = await prepareKeyTarget(emptyPage);
    trace('pressing keys');
    const block = 20;
    const warmup = 10;
    await pressKeys(loaded, warmup);
    await pressKeys(empty, warmup);
    for (let done = 0; done < opts.presses; done += block) {
      await pressKeys(empty, block);
      await pressKeys(loaded, block);
    }
    trace('messages and heap');
    const figures = async (page: Page, target: typeof loaded, key: string, messages: number, requests: number): Promise<SessionFigures> => ({
      messages,
      pendingRequests: requests,
      keypress: await readKeypress(target, warmup),
      messageToPaint: await messageToPaint(page, agent, key, 30),
      heapMb: await heapMb(page),
      domNodes: await domNodes(page),
    });
    return {
      loaded: {
        ...(await figures(loadedPage, loaded, loadedKey, opts.messages, opts.requests)),
        loadAllSeconds: round(loadAllSeconds, 1),
        lastPagesMs: round(pages.slice(-10).reduce((a, b) => a + b, 0) / Math.max(1, Math.min(10, pages.length)), 1),
      },
      empty: await figures(emptyPage, empty, emptyKey, 0, 1),
    };
  } finally {
    for (const context of contexts) await context.close();
    agent.close();
    operator.close();
  }
}
