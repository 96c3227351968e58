import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

/** The same search as scripts/test.mjs: CHROMIUM_PATH, then Debian's and other common places; undefined lets Playwright use its own. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((c): c is string => !!c && existsSync(c));
}

const ARGS = [
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  // Frames start when there is work instead of on the next vsync, so latencies measure the page, not the frame phase.
  '--disable-frame-rate-limit',
  '--disable-gpu-vsync',
  // performance.memory then reports exact figures instead of coarse buckets.
  '--enable-precise-memory-info',
  // Pages opened side by side keep their timers and frames running as a foreground tab would.
  '--disable-renderer-backgrounding',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
];

/** BENCH_VSYNC=1 keeps frames on the display's clock, for figures as a 60 Hz screen would show them. */
export function launchChromium(): Promise<Browser> {
  const args = process.env.BENCH_VSYNC ? ARGS.filter((a) => a !== '--disable-frame-rate-limit' && a !== '--disable-gpu-vsync') : ARGS;
  return chromium.launch({ executablePath: findChromium(), args });
}
