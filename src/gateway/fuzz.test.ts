import { describe, expect, it } from 'vitest';
import { startTestGateway, tokenOf } from '../testing/gateway-harness.ts';
import { fuzzGateway } from '../testing/fuzz-run.ts';

const MB = 1024 * 1024;

describe('S5 fuzzing', () => {
  it('[S5] a seeded, bounded run of bad frames never crashes the gateway: /healthz answers, every error has a stable code, RSS comes back', async () => {
    const t = await startTestGateway({
      // Limits that let the frames reach the parsers and handlers rather than stop at the door.
      rateLimit: { burst: 100_000, perSecond: 100_000 },
      loginLimit: { maxFailures: 1_000_000, windowMs: 60_000 },
      maxPendingQuestions: 100_000,
    });
    const warm = await fuzzGateway({ wsUrl: t.gw.wsUrl, httpUrl: t.gw.url, tokens: [tokenOf('admin')], frames: 500, seed: 1, maxPayload: 1024 * 1024 });
    expect(warm.problems).toEqual([]);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const report = await fuzzGateway({
      wsUrl: t.gw.wsUrl,
      httpUrl: t.gw.url,
      tokens: [tokenOf('admin'), tokenOf('agent'), tokenOf('guest')],
      frames: 4000,
      seed: 20261201,
      maxPayload: 1024 * 1024,
    });
    global.gc?.();
    const rssAfter = process.memoryUsage().rss;
    expect(report.framesSent).toBe(4000);
    expect(report.problems).toEqual([]);
    expect(report.healthChecks).toBeGreaterThan(0);
    expect(report.healthFailures).toBe(0);
    // Every kind of bad frame was answered with the protocol's own codes.
    expect(report.errorCodes.INVALID_REQUEST).toBeGreaterThan(100);
    expect(report.closes['1009']).toBeGreaterThan(0);
    expect(report.closes['4001']).toBeGreaterThan(0);
    // S5: within 20% or 40 MB of where it started.
    expect(rssAfter - rssBefore).toBeLessThan(Math.max(40 * MB, rssBefore * 0.2));
    // The gateway still does its job afterwards.
    const admin = await t.connect('admin');
    expect((await admin.request('sessions.list', {})).ok).toBe(true);
    // Clients here sent junk on purpose; the gateway's own log must show no failure of its own.
    t.clients.length = 0;
    t.logs.splice(0, t.logs.length, ...t.logs.filter((l) => !/closing|unknown token|refused/.test(l)));
    await t.close();
  }, 180_000);
});
