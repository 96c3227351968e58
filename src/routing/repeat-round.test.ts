/** Fixed instants only: every step runs at a UTC instant the test names, so the machine's clock plays no part. */
import { describe, expect, it } from 'vitest';
import { parseRouting } from './config.ts';
import { onCallAt } from './schedule.ts';
import { advanceRoute, handOff, startRoute, type RouteChange, type RouteEnv } from './state.ts';
import { simpleToolMatcher } from './tool-matcher.ts';

const MIN = 60_000;
const at = (iso: string) => Date.parse(iso);

// Daily shifts handing over at 09:00Z from Monday 2026-03-23: ana, bo, ana (Wednesday), bo (Thursday).
function envOf(steps: object[]): RouteEnv {
  const r = parseRouting(
    {
      schedules: { primary: { timezone: 'UTC', layers: [{ members: ['ana', 'bo'], rotation: 'daily', handoff: '09:00', start: '2026-03-23T09:00' }] } },
      escalations: { prod: { steps, repeat: 1 } },
    },
    { identities: ['ana', 'bo', 'cy'], tools: simpleToolMatcher },
  );
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return { escalation: r.routing.escalations.prod, kind: 'question', targets: { routing: r.routing } };
}

/** Who each step notifies, the steps running every 5 minutes from `startIso` until they run out. */
function notifiedPerStep(env: RouteEnv, startIso: string): string[][] {
  const t0 = at(startIso);
  const out: string[][] = [];
  let c: RouteChange = startRoute(env, t0);
  for (let t = 1; !c.exhausted; t++) {
    out.push(c.notify);
    c = advanceRoute(c.state, t0 + t * 5 * MIN, env);
  }
  return out;
}

describe('a repeat round across a shift hand-over (E2)', () => {
  const primaryThenBo = envOf([{ notify: ['schedule:primary'], wait: '5m' }, { notify: ['identity:bo'], wait: '5m' }]);

  it('[E1] the schedule hands over between the repeat\'s first and second step', () => {
    expect(onCallAt(primaryThenBo.targets.routing.schedules.primary, at('2026-03-26T08:58:00Z'))?.identity).toBe('ana');
    expect(onCallAt(primaryThenBo.targets.routing.schedules.primary, at('2026-03-26T09:03:00Z'))?.identity).toBe('bo');
  });

  it('[E2] someone the round has not notified yet is notified, though the shift that now names them began after the round did', () => {
    // The repeat's first step (08:58) reaches ana; by its second (09:03) bo is on call, and bo was not notified this round.
    expect(notifiedPerStep(primaryThenBo, '2026-03-26T08:48:00Z')).toEqual([['ana'], ['bo'], ['ana'], ['bo']]);
  });

  it('[E2] someone the round notified already is not notified again after the shift hands over', () => {
    // Wednesday 09:00Z hands over from bo to ana: the repeat's first step (08:58) reaches bo, who is notified once in the round.
    expect(notifiedPerStep(primaryThenBo, '2026-03-25T08:48:00Z')).toEqual([['bo'], [], ['bo'], []]);
  });

  it('[E2][E6] someone a hand-off notified in the round is not notified again by its later step', () => {
    const env = envOf([{ notify: ['identity:ana'], wait: '5m' }, { notify: ['schedule:primary'], wait: '5m' }]);
    const t0 = at('2026-03-26T08:50:00Z');
    const first = advanceRoute(startRoute(env, t0).state, t0 + 5 * MIN, env);
    expect(first.notify).toEqual([]);
    const repeat = advanceRoute(first.state, t0 + 10 * MIN, env);
    expect(repeat.notify).toEqual(['ana']);
    const handed = handOff(repeat.state, { identity: 'ana', isAdmin: false }, 'identity:bo', undefined, t0 + 11 * MIN, env);
    if (!handed.ok) throw new Error(handed.message);
    expect(handed.notify).toEqual(['bo']);
    // 09:05: bo is on call now, and was notified in this round by the hand-off.
    expect(advanceRoute(handed.state, t0 + 15 * MIN, env).notify).toEqual([]);
  });

  it('[E2] a round\'s list carried past a step by a gateway that does not keep it (a cluster mid-upgrade) is not taken as this round\'s', () => {
    // Three steps, twice: ana, then cy, then cy and the schedule (bo from Thursday 09:00Z).
    const env = envOf([{ notify: ['identity:ana'], wait: '5m' }, { notify: ['identity:cy'], wait: '5m' }, { notify: ['identity:cy', 'schedule:primary'], wait: '5m' }]);
    const t0 = at('2026-03-26T09:10:00Z');
    let c = startRoute(env, t0);
    for (let t = 1; t <= 3; t++) c = advanceRoute(c.state, t0 + t * 5 * MIN, env);
    // The repeat's first step ran here and kept its list: [ana].
    expect(c.state.step).toBe(3);
    expect(c.state.roundNotified).toEqual(['ana']);
    // An older gateway runs the repeat's second step: it notifies cy and copies the list on as it was.
    const carried = { ...c.state, step: 4, nextAtMs: t0 + 25 * MIN };
    // The third step reckons the round's earlier steps (ana, cy), not the stale [ana]: cy was notified this round already.
    expect(advanceRoute(carried, t0 + 25 * MIN, env).notify).toEqual(['bo']);
  });
});
