import type { Page } from '@playwright/test';
import { summarize, type Summary } from '../lib/stats.ts';
import { signalFromPage } from './page-tools.ts';

export type Keypress = {
  /** Number key down -> the option's radio committed as checked / the frame after. */
  toDom: Summary;
  toPaint: Summary;
  /** Keypresses the Event Timing API reported at 16 ms or more (its threshold cannot go lower). */
  slowEvents: number;
};

/** In the page: per number key, when its option's radio turned checked and the frame after; and Event Timing's slow keys. */
function installKeyProbe() {
  const w = window as unknown as Record<string, unknown> & { benchPicked(n: number): void };
  const marks: { key: number; down: number; dom?: number; paint?: number }[] = [];
  const slow: { start: number; duration: number }[] = [];
  w.benchKeys = { marks, slow };
  const region = document.querySelector('[role="region"][aria-label="Questions"]')!;
  addEventListener(
    'keydown',
    (e) => /^[1-9]$/.test(e.key) && marks.push({ key: Number(e.key), down: e.timeStamp }),
    true,
  );
  new MutationObserver(() => {
    const mark = marks.at(-1);
    if (!mark || mark.dom !== undefined) return;
    const radios = [...region.querySelectorAll('[role="radio"]')];
    if (radios[mark.key - 1]?.getAttribute('aria-checked') !== 'true') return;
    mark.dom = performance.now();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => ((mark.paint = performance.now()), w.benchPicked(mark.key));
      channel.port2.postMessage(null);
    });
  }).observe(region, { subtree: true, attributes: true, attributeFilter: ['aria-checked'] });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'keydown') slow.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
}

export type KeyTarget = { page: Page; picked: () => Promise<unknown> };

/** Installs the probe on a page whose dock shows a single-select question, and focuses its first option. */
export async function prepareKeyTarget(page: Page): Promise<KeyTarget> {
  const picked = await signalFromPage(page, 'benchPicked');
  await page.getByRole('region', { name: 'Questions' }).getByRole('radio').first().focus();
  await page.evaluate(installKeyProbe);
  return { page, picked };
}

/** Presses 2, 1, 2, ... so every press changes the choice; each waits for its frame and a short pause, as typing would. */
export async function pressKeys(target: KeyTarget, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const done = target.picked();
    await target.page.keyboard.press(i % 2 === 0 ? '2' : '1');
    await done;
    await target.page.waitForTimeout(15 + Math.random() * 20);
  }
}

/** Reads what the probe recorded, skipping the first `skip` presses (warm-up). */
export async function readKeypress(target: KeyTarget, skip: number): Promise<Keypress> {
  type Marks = { marks: { down: number; dom?: number; paint?: number }[]; slow: { start: number; duration: number }[] };
  const { marks, slow } = await target.page.evaluate(() => (window as unknown as { benchKeys: Marks }).benchKeys);
  const used = marks.slice(skip).filter((m) => m.dom !== undefined && m.paint !== undefined);
  return {
    toDom: summarize(used.map((m) => m.dom! - m.down)),
    toPaint: summarize(used.map((m) => m.paint! - m.down)),
    // An entry's startTime is its event's timeStamp, which ties it to one measured press.
    slowEvents: used.filter((m) => slow.some((e) => Math.abs(e.start - m.down) < 1)).length,
  };
}
