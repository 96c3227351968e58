import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { BenchGateway } from '../lib/bench-gateway.ts';

/** Wall-clock milliseconds with sub-millisecond resolution: the same scale as a page's `timeOrigin + now()`. */
export const nodeNow = (): number => performance.timeOrigin + performance.now();

/**
 * A fresh context (no cache, no storage) at a laptop's window size. tsx compiles this harness with esbuild's keepNames,
 * so functions handed to page.evaluate call `__name`; the init script gives pages a no-op one. `BENCH_CSS` (a style
 * sheet's text) is added to every page: a way to weigh one style against another in the same build, e.g.
 * `BENCH_CSS='.qd-region{animation:none}' npm run bench -- --only question`.
 */
export async function newBenchContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // Library mode waits forever by default; a stuck step should fail the run instead.
  context.setDefaultTimeout(60_000);
  await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  if (process.env.BENCH_CSS) await context.addInitScript({ content: `addEventListener('DOMContentLoaded', () => { const s = document.createElement('style'); s.textContent = ${JSON.stringify(process.env.BENCH_CSS)}; document.head.append(s); });` });
  return context;
}

/** Progress lines on stderr with BENCH_DEBUG=1, to see where a slow or stuck run is. */
export const trace = (what: string): void => void (process.env.BENCH_DEBUG && process.stderr.write(`  ${new Date().toISOString().slice(11, 23)} ${what}\n`));

export type PageClock = { offsetMs: number; uncertaintyMs: number };

/**
 * How far the page's clock runs ahead of this process's, from the evaluate round trip with the least delay;
 * a page time minus `offsetMs` is a time on this process's clock, good to within `uncertaintyMs`.
 */
export async function pageClock(page: Page, probes = 40): Promise<PageClock> {
  let best = { rtt: Infinity, offset: 0 };
  for (let i = 0; i < probes; i++) {
    const t0 = nodeNow();
    const tp = await page.evaluate(() => performance.timeOrigin + performance.now());
    const t1 = nodeNow();
    if (t1 - t0 < best.rtt) best = { rtt: t1 - t0, offset: tp - (t0 + t1) / 2 };
  }
  return { offsetMs: best.offset, uncertaintyMs: best.rtt / 2 };
}

/**
 * The page has nothing left to do: what the previous round (of either kind) set off in it is done, its motion
 * included (a person reads a question that has arrived; an animation still running is not an idle page). An idle
 * callback alone is not that: Chromium runs one between two frames, and after an answer the page still owes one (the
 * log scrolled to its end in the frame that drew the dock's leaving has its scroll event dispatched in the next), so a
 * question asked then had its first frame wait for the compositor's next frame interval (section 80). `READ_MS` of
 * quiet, a short read, let the frames already asked for run first; `BENCH_IDLE=rIC` keeps the old wait.
 */
const READ_MS = 50;
export const pageIdle = (page: Page): Promise<void> =>
  page.evaluate(async (readMs) => {
    const ending = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
    await new Promise((idle) => requestIdleCallback(idle, { timeout: 1000 }));
    if (readMs === 0) return;
    await new Promise((read) => setTimeout(read, readMs));
    await new Promise((idle) => requestIdleCallback(idle, { timeout: 1000 }));
  }, process.env.BENCH_IDLE === 'rIC' ? 0 : READ_MS);

/** Opens the built Control UI on one session, signed in through `?token=`, and waits until it is connected. */
export async function openSession(context: BrowserContext, gateway: BenchGateway, sessionKey: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${gateway.url}/s/${sessionKey}?token=${encodeURIComponent(gateway.operatorToken)}`);
  await page.getByRole('status', { name: 'Connection' }).filter({ hasText: 'Connected' }).waitFor();
  await page.getByRole('log', { name: 'Conversation' }).waitFor();
  return page;
}

/** A page-to-Node signal: `window[name](value)` in the page resolves the promise `next()` handed out, in order. */
export async function signalFromPage(page: Page, name: string): Promise<() => Promise<unknown>> {
  const waiting: ((v: unknown) => void)[] = [];
  const early: unknown[] = [];
  await page.exposeFunction(name, (value: unknown) => {
    const resolve = waiting.shift();
    if (resolve) resolve(value);
    else early.push(value);
  });
  return () => (early.length ? Promise.resolve(early.shift()) : new Promise((ok) => waiting.push(ok)));
}

/** Clicks "Load earlier" until the whole history is in the page; returns the time each page of history took to show. */
export async function loadWholeHistory(page: Page, maxPages = 500): Promise<number[]> {
  const log = page.getByRole('log', { name: 'Conversation' });
  const button = log.getByRole('button', { name: 'Load earlier' });
  const took: number[] = [];
  for (let i = 0; i < maxPages && (await button.count()) > 0; i++) {
    const height = await log.evaluate((el) => el.scrollHeight);
    const t0 = nodeNow();
    await button.click();
    // Older rows make the log taller; the label reads "Loading…" until they are in, and the button goes after the last page.
    await log.evaluate(
      (el, before) =>
        new Promise<void>((done) => {
          const settled = () => {
            const labels = [...el.querySelectorAll('button')].map((b) => b.textContent);
            return !labels.includes('Loading…') && (el.scrollHeight > before || !labels.includes('Load earlier'));
          };
          const poll = () => (settled() ? done() : requestAnimationFrame(poll));
          poll();
        }),
      height,
    );
    took.push(nodeNow() - t0);
  }
  return took;
}

/** Back to the latest message by keyboard (End on the focused log), as a reader would after paging back. */
export async function scrollLogToEnd(page: Page): Promise<void> {
  const log = page.getByRole('log', { name: 'Conversation' });
  await log.focus();
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('End');
    // Rows measured on the way can grow the log, so it takes a few presses to settle at the end.
    const gap = await log.evaluate(
      (el) => new Promise<number>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(el.scrollHeight - el.scrollTop - el.clientHeight)))),
    );
    if (gap < 2) return;
  }
  throw new Error('the log did not settle at its end');
}
