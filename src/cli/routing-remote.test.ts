/** E10: `askdock routing test` without --config: the running gateway's routing answers, printed as the dry run prints it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { routingConfig } from '../testing/routing-gateway.ts';
import { runAskdock } from '../testing/hook-process.ts';

describe('askdock routing test against a running gateway (E10, E12)', { timeout: 120_000 }, () => {
  let t: TestGateway;
  const askdock = (...args: string[]) => runAskdock(['routing', 'test', ...args], { cwd: t.dir, env: { ASKDOCK_URL: t.url, ASKDOCK_TOKEN: t.operatorToken } });
  beforeAll(async () => {
    t = await startTestGateway({ config: routingConfig });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('[E10] without --config: the route, each step with the people it reaches, and the steps past the question\'s timeout', async () => {
    const out = await askdock('--tool', 'Bash(git push origin main)', '--at', '2026-03-02T09:00:00Z', '--timeout', '240');
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(
      [
        'route: routing.routes[0] -> escalation "deploy", quorum 2',
        'asked at 2026-03-02T09:00:00.000Z, expires after 4m',
        '  step 1  +0s      2026-03-02T09:00:00.000Z  identity:ana -> ana',
        'not reached before it expires (+4m):',
        '  step 2  +5m      2026-03-02T09:05:00.000Z  group:ops -> bo, cy',
        'then at +4m it expires (the steps would run out at +15m: deny)',
        '',
      ].join('\n'),
    );
  });

  it('[E10] --json without --config is the gateway\'s routing.test answer; a route that matches nothing says so', async () => {
    const json = await askdock('--kind', 'approval', '--at', '2026-03-02T09:00:00Z', '--json');
    expect(json.code).toBe(0);
    const r = JSON.parse(json.stdout);
    expect(r.route).toEqual({ routes: [0], escalation: 'deploy', quorum: 2 });
    expect(r.steps.map((s: { notify: string[] }) => s.notify)).toEqual([['ana'], ['bo', 'cy']]);
    expect(r.unreached).toEqual([]);
    const none = await askdock('--kind', 'secret');
    expect(none.stdout).toBe('no route matches: the question goes to everyone who may see it, as without routing\n');
  });

  it('[E12][A5] an agent\'s token is refused: exit 1 naming FORBIDDEN and the scope needed, and no route is printed', async () => {
    const out = await runAskdock(['routing', 'test', '--kind', 'approval'], { cwd: t.dir, env: { ASKDOCK_URL: t.url, ASKDOCK_TOKEN: t.agentToken } });
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^askdock routing test: routing\.test needs scope operator\.admin or .*\(FORBIDDEN\)\n$/);
  });
});
