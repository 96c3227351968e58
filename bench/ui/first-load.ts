import type { Browser } from '@playwright/test';
import { median, round } from '../lib/stats.ts';
import { newBenchContext } from './page-tools.ts';

export type FirstLoad = { composerMs: number; connectedMs?: number; samples: number };

/**
 * In the page from its first byte: when a textbox named "Message" is present and enabled, and when the
 * connection status reads "Connected" (the app's; the bare page has none). Times are from navigation start.
 */
function installReadyProbe() {
  const marks: { composer?: number; connected?: number } = {};
  (window as unknown as { benchReady: typeof marks }).benchReady = marks;
  const check = () => {
    if (marks.composer === undefined) {
      const box = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"], input[aria-label="Message"]');
      if (box && !box.disabled) marks.composer = performance.now();
    }
    if (marks.connected === undefined) {
      const status = document.querySelector('[role="status"][aria-label="Connection"]');
      if (status?.textContent === 'Connected') marks.connected = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
}

async function coldLoad(browser: Browser, url: string, needConnected: boolean) {
  const context = await newBenchContext(browser);
  try {
    await context.addInitScript(installReadyProbe);
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(
      (connected) => {
        const m = (window as unknown as { benchReady?: { composer?: number; connected?: number } }).benchReady;
        return m?.composer !== undefined && (!connected || m.connected !== undefined);
      },
      needConnected,
    );
    return await page.evaluate(() => (window as unknown as { benchReady: { composer: number; connected?: number } }).benchReady);
  } finally {
    await context.close();
  }
}

/** Cold loads (a fresh context each: no cache, no storage) of the app and of the bare page, alternating. */
export async function measureFirstLoad(browser: Browser, appUrl: string, bareUrl: string, rounds = 8): Promise<{ app: FirstLoad; bare: FirstLoad }> {
  const app: { composer: number; connected?: number }[] = [];
  const bare: { composer: number }[] = [];
  await coldLoad(browser, appUrl, true);
  await coldLoad(browser, bareUrl, false);
  for (let i = 0; i < rounds; i++) {
    app.push(await coldLoad(browser, appUrl, true));
    bare.push(await coldLoad(browser, bareUrl, false));
  }
  return {
    app: { composerMs: round(median(app.map((m) => m.composer)), 1), connectedMs: round(median(app.map((m) => m.connected!)), 1), samples: rounds },
    bare: { composerMs: round(median(bare.map((m) => m.composer)), 1), samples: rounds },
  };
}
