import { describe, expect, it } from 'vitest';
import { planEscalation } from './plan.ts';
import { fixtureRouting, maySee } from '../testing/routing-fixture.ts';

const MIN = 60_000;
// Wednesday 2026-03-25 10:00 in Berlin (CET): ana's day (the rotation: ana Mon 23rd, bo Tue, ana Wed).
const WED_10 = Date.parse('2026-03-25T09:00:00Z');

function plan(createdAtMs: number, timeoutMs?: number, escalation = 'prod', kind: 'approval' | 'question' = 'approval', extra = {}) {
  return planEscalation({
    choice: { routes: [0], escalation, ...(kind === 'approval' ? { quorum: 2 } : {}) },
    kind,
    createdAtMs,
    ...(timeoutMs !== undefined ? { expiresAtMs: createdAtMs + timeoutMs } : {}),
    targets: { routing: fixtureRouting(extra), maySee },
  });
}

describe('planning an escalation', () => {
  it('[E2][E10] each step at its time with the people it reaches then; the team after the wait', () => {
    const p = plan(WED_10, 60 * MIN);
    // Mon 23rd ana, Tue 24th bo, Wed 25th ana.
    expect(p.steps.map((s) => [s.step, s.atMs - WED_10, s.notify])).toEqual([
      [0, 0, ['ana']],
      [1, 5 * MIN, ['ana', 'bo', 'cy']],
    ]);
    expect(p.unreached).toEqual([]);
    expect(p.exhausted).toEqual({ action: 'deny', atMs: WED_10 + 15 * MIN, reached: true });
    expect(p.quorum).toBe(2);
  });

  it('[E1] session-owner reaches the operator who owns the question\'s session, and is skipped without one', () => {
    const extra = { escalations: { owner: { steps: [{ notify: ['session-owner'], wait: '5m' }] } } };
    const routing = fixtureRouting(extra);
    const input = { choice: { routes: [0], escalation: 'owner' }, kind: 'question' as const, createdAtMs: WED_10 };
    expect(planEscalation({ ...input, targets: { routing, sessionOwner: 'cy' } }).steps[0].notify).toEqual(['cy']);
    expect(planEscalation({ ...input, targets: { routing } }).steps[0].skipped).toEqual([{ target: 'session-owner', reason: 'no-session-owner' }]);
  });

  it('[E3] a target who may not see the question is skipped, and the skip says so', () => {
    expect(plan(WED_10).steps[1].skipped).toEqual([{ target: 'group:ops', reason: 'may-not-see', identity: 'eve' }]);
  });

  it('[E9] steps and the end that the timeout comes before are unreached', () => {
    const short = plan(WED_10, 8 * MIN);
    expect(short.steps.map((s) => s.step)).toEqual([0, 1]);
    expect(short.exhausted.reached).toBe(false);
    const shorter = plan(WED_10, 3 * MIN);
    expect(shorter.steps.map((s) => s.step)).toEqual([0]);
    expect(shorter.unreached.map((s) => [s.step, s.atMs - WED_10, s.notify])).toEqual([[1, 5 * MIN, ['ana', 'bo', 'cy']]]);
  });

  it('[E2] a schedule gap skips its step at once: at night the team is asked straight away', () => {
    const night = Date.parse('2026-03-25T21:00:00Z');
    const p = plan(night, 60 * MIN);
    expect(p.steps.map((s) => [s.atMs - night, s.notify, s.skipped.map((k) => k.reason)])).toEqual([
      [0, [], ['nobody-on-call']],
      [0, ['ana', 'bo', 'cy'], ['may-not-see']],
    ]);
    expect(p.exhausted.atMs).toBe(night + 10 * MIN);
  });

  it('[E2] a later step reaches whoever is on call when it runs', () => {
    const extra = { escalations: { late: { steps: [{ notify: ['identity:cy'], wait: '1h' }, { notify: ['schedule:primary'], wait: '5m' }], repeat: 1 } } };
    // Wed 08:30 Berlin: cy first; at 09:30 ana is on call (her day starts at 09:00).
    const morning = Date.parse('2026-03-25T07:30:00Z');
    expect(plan(morning, undefined, 'late', 'question', extra).steps.map((s) => [s.round, s.index, s.notify])).toEqual([
      [0, 0, ['cy']], [0, 1, ['ana']], [1, 0, ['cy']], [1, 1, ['ana']],
    ]);
    // Wed 17:30: at 18:30 nobody is; the repeat starts at once.
    const evening = Date.parse('2026-03-25T16:30:00Z');
    const p = plan(evening, undefined, 'late', 'question', extra);
    expect(p.steps.map((s) => [s.atMs - evening, s.notify])).toEqual([[0, ['cy']], [60 * MIN, []], [60 * MIN, ['cy']], [120 * MIN, []]]);
    // A question (not an approval) expires when the steps run out, unless the config says otherwise.
    expect(p.exhausted).toEqual({ action: 'expire', atMs: evening + 120 * MIN, reached: true });
  });
});
