import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fuzzGateway, rssWithinBound, startFuzzChild } from '../../testing/fuzz-run.ts';
import { TestClient } from '../../testing/ws-client.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('S5 fuzzing', () => {
  it('[S5] a seeded, bounded run of bad frames never crashes the gateway: /healthz answers, every error has a stable code, RSS (read from outside, no forced GC) stays within its bound', async () => {
    // The gateway in a process of its own, as `npm run fuzz` runs it: its RSS is its own and is read from /proc.
    const child = await startFuzzChild(ROOT);
    try {
      // As an outside check measures it: right after the gateway listens, then again after the frames.
      const rssAtStart = await child.rss();
      const base = { wsUrl: child.wsUrl, httpUrl: child.url, maxPayload: 1024 * 1024 };
      const warm = await fuzzGateway({ ...base, tokens: [child.tokens[0]], frames: 500, seed: 1 });
      expect(warm.problems).toEqual([]);
      const rssBefore = await child.rss();
      const report = await fuzzGateway({ ...base, tokens: child.tokens, frames: 4000, seed: 20261201 });
      const rssAfter = await child.rss();
      expect(child.exited()).toBe(false);
      expect(report.framesSent).toBe(4000);
      expect(report.problems).toEqual([]);
      expect(report.healthChecks).toBeGreaterThan(0);
      expect(report.healthFailures).toBe(0);
      // Every kind of bad frame was answered with the protocol's own codes.
      expect(report.errorCodes.INVALID_REQUEST).toBeGreaterThan(100);
      expect(report.closes['1009']).toBeGreaterThan(0);
      expect(report.closes['4001']).toBeGreaterThan(0);
      // S5: within 20% or 40 MB of where it started, as the operating system counts it: from the fresh start (without the
      // shebang's --max-semi-space-size it went past it, 106.5 -> 159.4 MB) and from after the warm-up.
      expect(rssAtStart).not.toBeNull();
      expect(rssBefore).not.toBeNull();
      expect(rssAfter).not.toBeNull();
      expect(rssWithinBound(rssAtStart!, rssAfter!), `RSS ${rssAtStart} at start -> ${rssAfter}`).toBe(true);
      expect(rssWithinBound(rssBefore!, rssAfter!), `RSS ${rssBefore} -> ${rssAfter}`).toBe(true);
      // The gateway still does its job afterwards.
      const admin = await TestClient.open(child.wsUrl);
      expect((await admin.connect(child.tokens[0])).ok).toBe(true);
      expect((await admin.request('sessions.list', {})).ok).toBe(true);
      admin.close();
    } finally {
      await child.stop();
      rmSync(child.dir, { recursive: true, force: true });
    }
  }, 180_000);
});
