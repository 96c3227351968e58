/** E10/E12: `routing.test` on a running gateway: the steps past the question's timeout are named, as the CLI names them. */
import { afterEach, describe, expect, it } from 'vitest';
import { failure, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { connectPerson, routingConfig, twoStepConfig } from '../../testing/routing-gateway.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const MIN = 60_000;

async function ana(first: string) {
  const clock = new FakeClock();
  t = await startTestGateway({ config: twoStepConfig(first, '10m'), clock });
  return { clock, ana: await connectPerson(t, 'ana') };
}

describe('routing.test (E10, E12)', () => {
  it('[E12] a step after a question\'s default timeout (15 minutes) is unreached, not a step of the plan', async () => {
    const { clock, ana: c } = await ana('20m');
    const r = await c.call('routing.test', { kind: 'question' });
    expect(r.steps.map((s) => [s.atMs - clock.now(), s.notify])).toEqual([[0, ['ana']]]);
    expect(r.unreached.map((s) => [s.atMs - clock.now(), s.notify])).toEqual([[20 * MIN, ['bo', 'cy']]]);
  });

  it('[E12] timeoutMs sets the question\'s timeout the steps are measured against; out of 30 s..1 h it is refused by name', async () => {
    const { clock, ana: c } = await ana('5m');
    const short = await c.call('routing.test', { kind: 'question', timeoutMs: 4 * MIN });
    expect(short.steps.map((s) => s.atMs - clock.now())).toEqual([0]);
    expect(short.unreached.map((s) => [s.atMs - clock.now(), s.targets, s.notify])).toEqual([[5 * MIN, ['group:ops'], ['bo', 'cy']]]);
    expect(short).toMatchObject({ atMs: clock.now(), expiresAtMs: clock.now() + 4 * MIN, exhausted: { action: 'keep', reached: false } });
    const long = await c.call('routing.test', { kind: 'question', timeoutMs: 60 * MIN });
    expect(long.unreached).toEqual([]);
    const refused = await failure(c.call('routing.test', { kind: 'question', timeoutMs: 1000 }));
    expect(refused.code).toBe('INVALID_REQUEST');
    expect(refused.message).toContain('timeoutMs');
  });

  it('[E12] at is an ISO time with its offset, seconds optional, as the config writes times; one without an offset is refused by name', async () => {
    const { ana: c } = await ana('5m');
    const at = '2026-03-02T09:00Z';
    for (const written of [at, '2026-03-02T09:00:00Z', '2026-03-02T10:00+01:00']) {
      const r = await c.call('routing.test', { kind: 'question', at: written });
      expect(r.atMs).toBe(Date.parse(at));
      expect(r.steps.map((s) => [s.atMs - Date.parse(at), s.notify])).toEqual([[0, ['ana']], [5 * MIN, ['bo', 'cy']]]);
    }
    for (const bad of ['2026-03-02T09:00', 'tomorrow', '2026-13-02T09:00Z', '2026-02-30T09:00Z', '2026-02-31T09:00:00Z', '2026-03-02T24:00Z']) {
      const refused = await failure(c.call('routing.test', { kind: 'question', at: bad }));
      expect(refused.code).toBe('INVALID_REQUEST');
      expect(refused.message).toContain('at must be');
    }
  });

  it('[E12][E2] a step names in alreadyNotified those its round notified at an earlier step, whom the gateway does not notify again', async () => {
    const clock = new FakeClock();
    const routing = { groups: { ops: { members: ['bo', 'cy'] } }, escalations: { team: { steps: [{ notify: ['identity:bo'], wait: '5m' }, { notify: ['group:ops'], wait: '5m' }], repeat: 1 } }, routes: [{ match: { kind: ['question' as const] }, escalation: 'team' }] };
    t = await startTestGateway({ config: { ...routingConfig, routing }, clock });
    const c = await connectPerson(t, 'ana');
    const r = await c.call('routing.test', { kind: 'question', timeoutMs: 60 * MIN });
    expect(r.steps.map((s) => [s.atMs - clock.now(), s.notify, s.alreadyNotified])).toEqual([
      [0, ['bo'], undefined], [5 * MIN, ['bo', 'cy'], ['bo']], [10 * MIN, ['bo'], undefined], [15 * MIN, ['bo', 'cy'], ['bo']],
    ]);
  });
});
