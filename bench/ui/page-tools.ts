import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { BenchGateway } from '../lib/bench-gateway.ts';

/** Wall-clock milliseconds with sub-millisecond resolution: the same scale as a page's `timeOrigin + now()`. */
export const nodeNow = (): number => performance.timeOrigin + performance.now();

/**
 * A fresh context (no cache, no storage) at a laptop's window size. tsx compiles this harness with esbuild's keepNames,
 * so functions handed to page.evaluate call `__name`; the init script gives pages a no-op one.
 */
export async function newBenchContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  return context;
}

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
  const button = page.getByRole('log', { name: 'Conversation' }).getByRole('button', { name: 'Load earlier' });
  const took: number[] = [];
  for (let i = 0; i < maxPages && (await button.count()) > 0; i++) {
    const t0 = nodeNow();
    await button.click();
    // The button reads "Loading…" while the page is fetched; it is back (or gone) once the messages rendered.
    await page.waitForFunction(() => {
      const log = document.querySelector('[role="log"][aria-label="Conversation"]');
      return ![...(log?.querySelectorAll('button') ?? [])].some((b) => b.textContent === 'Loading…');
    });
    took.push(nodeNow() - t0);
  }
  return took;
}
