import { describe, expect, it } from 'vitest';
import { acknowledge, advanceRoute, approve, handOff, mayAnswer, startRoute, type RouteEnv, type RouteState } from './state.ts';
import { fixtureIdentities, fixtureRouting, maySee } from '../testing/routing-fixture.ts';

const MIN = 60_000;
const T0 = Date.parse('2026-03-25T09:00:00Z'); // Wed 10:00 Berlin: ana is on call.
const routing = fixtureRouting();
const env: RouteEnv = { escalation: routing.escalations.prod, kind: 'approval', targets: { routing, maySee, identities: fixtureIdentities } };
const ana = { identity: 'ana', isAdmin: false };
const bo = { identity: 'bo', isAdmin: false };
const cy = { identity: 'cy', isAdmin: false };
const root = { identity: 'root', isAdmin: true };

function ok<T extends { ok: boolean }>(r: T): Extract<T, { ok: true }> {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r as Extract<T, { ok: true }>;
}

describe('a routed question\'s route state', () => {
  it('[E2][E11] starts at the first step: its people notified and eligible, the next step\'s time set', () => {
    const c = startRoute(env, T0, 2);
    expect(c).toEqual({
      state: { escalation: 'prod', step: 0, notified: ['ana'], stepReached: ['ana'], eligible: ['ana'], nextAtMs: T0 + 5 * MIN, quorum: { needed: 2, approvals: [] } },
      notify: ['ana'],
      skipped: [],
    });
  });

  it('[E2] a repeat round notifies each person once, at the first of its steps that names them', () => {
    const steps = [{ notify: ['identity:ana'], waitMs: 5 * MIN }, { notify: ['identity:ana', 'identity:bo'], waitMs: 5 * MIN }];
    const twice = { ...env, escalation: { ...env.escalation, steps, repeat: 1 } };
    const notified: string[][] = [];
    let c = startRoute(twice, T0);
    for (let t = 1; !c.exhausted; t++) {
      notified.push(c.notify);
      c = advanceRoute(c.state, T0 + t * 5 * MIN, twice);
    }
    expect(notified).toEqual([['ana'], ['bo'], ['ana'], ['bo']]);
  });

  it('[E2] a repeat runs the steps again: each step notifies its people again, though they were notified before', () => {
    const once = { ...env, escalation: { ...env.escalation, repeat: 1 } };
    const s0 = startRoute(once, T0).state;
    const s1 = advanceRoute(s0, T0 + 5 * MIN, once).state;
    const again = advanceRoute(s1, T0 + 15 * MIN, once);
    expect(again.exhausted).toBeUndefined();
    expect(again.notify).toEqual(['ana']);
    expect(again.state).toMatchObject({ step: 2, notified: ['ana', 'bo', 'cy'], nextAtMs: T0 + 20 * MIN });
    // Ana was notified at this round's first step: within a round, only the new ones are.
    expect(advanceRoute(again.state, T0 + 20 * MIN, once).notify).toEqual(['bo', 'cy']);
    expect(advanceRoute(advanceRoute(again.state, T0 + 20 * MIN, once).state, T0 + 30 * MIN, once).exhausted).toBe('deny');
  });

  it('[E2] nothing happens before the wait passes; then the next step notifies only the new people; then the steps run out', () => {
    const s0 = startRoute(env, T0).state;
    expect(advanceRoute(s0, T0 + 5 * MIN - 1, env)).toEqual({ state: s0, notify: [], skipped: [] });
    const c1 = advanceRoute(s0, T0 + 5 * MIN, env);
    expect(c1.notify).toEqual(['bo', 'cy']);
    expect(c1.skipped).toEqual([{ target: 'group:ops', reason: 'may-not-see', identity: 'eve' }]);
    expect(c1.state).toMatchObject({ step: 1, notified: ['ana', 'bo', 'cy'], eligible: ['ana', 'bo', 'cy'], nextAtMs: T0 + 15 * MIN });
    const c2 = advanceRoute(c1.state, T0 + 15 * MIN, env);
    expect(c2.exhausted).toBe('deny');
    expect(c2.state.nextAtMs).toBeUndefined();
    expect(c2.state.notified).toEqual(['ana', 'bo', 'cy']);
    // Nothing more is due once the steps have run out.
    expect(advanceRoute(c2.state, T0 + 99 * MIN, env).exhausted).toBeUndefined();
  });

  it('[E2][D3] a step found late (the gateway was down) runs once, giving its people their whole wait', () => {
    const late = T0 + 60 * MIN;
    const c = advanceRoute(startRoute(env, T0).state, late, env);
    expect(c.state).toMatchObject({ step: 1, nextAtMs: late + 10 * MIN });
    expect(c.exhausted).toBeUndefined();
  });

  it('[E4] "I\'m on it" pauses escalation for 30 minutes, then it goes on from where it was', () => {
    const s0 = startRoute(env, T0).state;
    const acked = ok(acknowledge(s0, ana, T0 + 2 * MIN, env)).state;
    expect(acked.ackedBy).toEqual({ identity: 'ana', atMs: T0 + 2 * MIN, untilMs: T0 + 32 * MIN });
    // 3 minutes of the wait were left: the step runs 3 minutes after the pause ends.
    expect(acked.nextAtMs).toBe(T0 + 35 * MIN);
    expect(advanceRoute(acked, T0 + 5 * MIN, env).state).toBe(acked);
    // Acknowledged again 10 minutes later: the pause ends 10 minutes later, and so does the wait.
    const again = ok(acknowledge(acked, ana, T0 + 12 * MIN, env)).state;
    expect(again).toMatchObject({ ackedBy: { untilMs: T0 + 42 * MIN }, nextAtMs: T0 + 45 * MIN });
    const resumed = advanceRoute(again, T0 + 45 * MIN, env);
    expect(resumed.notify).toEqual(['bo', 'cy']);
    expect(resumed.state.ackedBy).toBeUndefined();
  });

  it('[E4] "I\'m on it" on a step already due (the escalation duty has not run it yet) holds that step until the pause ends', () => {
    const s0 = startRoute(env, T0).state;
    const acked = ok(acknowledge(s0, ana, T0 + 7 * MIN, env)).state;
    expect(acked.nextAtMs).toBe(T0 + 37 * MIN);
    expect(advanceRoute(acked, T0 + 36 * MIN, env).notify).toEqual([]);
    expect(advanceRoute(acked, T0 + 37 * MIN, env).notify).toEqual(['bo', 'cy']);
  });

  it('[E4] only someone who may answer can acknowledge; the refusal lists who may', () => {
    const s0 = startRoute(env, T0).state;
    expect(acknowledge(s0, bo, T0, env)).toEqual({ ok: false, code: 'FORBIDDEN', message: 'bo may not answer this question: it waits for ana', eligible: ['ana'] });
    expect(ok(acknowledge(s0, root, T0, env)).state.ackedBy?.identity).toBe('root');
  });

  it('[E3] eligible: everyone notified so far, and admins', () => {
    const s0 = startRoute(env, T0).state;
    expect([mayAnswer(s0, 'ana', false), mayAnswer(s0, 'bo', false), mayAnswer(s0, 'root', true)]).toEqual([true, false, true]);
  });

  it('[E6] a hand-off notifies the target, who may then answer; it is recorded with its note', () => {
    const s0 = startRoute(env, T0).state;
    const h = ok(handOff(s0, ana, 'identity:cy', 'you know this service', T0 + MIN, env));
    expect(h.notify).toEqual(['cy']);
    expect(h.state.handoffs).toEqual([{ from: 'ana', to: 'identity:cy', note: 'you know this service', atMs: T0 + MIN }]);
    expect(mayAnswer(h.state, 'cy', false)).toBe(true);
    expect(h.state.nextAtMs).toBe(s0.nextAtMs);
  });

  it('[E6] a hand-off from someone not eligible, to a schedule, to an unknown group or person, or to someone who may not see it is refused', () => {
    const s0 = startRoute(env, T0).state;
    expect(handOff(s0, bo, 'identity:cy', undefined, T0, env)).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(handOff(s0, ana, 'schedule:primary', undefined, T0, env)).toMatchObject({ ok: false, code: 'INVALID_REQUEST' });
    expect(handOff(s0, ana, 'group:nope', undefined, T0, env)).toMatchObject({ ok: false, code: 'INVALID_REQUEST', message: 'to: unknown target "group:nope"' });
    expect(handOff(s0, ana, 'identity:zed', undefined, T0, env)).toMatchObject({ ok: false, code: 'INVALID_REQUEST', message: 'to: unknown target "identity:zed"' });
    expect(handOff(s0, ana, 'identity:eve', undefined, T0, env)).toMatchObject({ ok: false, code: 'INVALID_REQUEST', message: 'to: nobody in "identity:eve" may see this question' });
  });

  it('[E5] a quorum of two: distinct identities count once each, and the first Deny denies', () => {
    const s1 = advanceRoute(startRoute(env, T0, 2).state, T0 + 5 * MIN, env).state;
    const first = ok(approve(s1, ana, 'allow', 'dock', T0 + 6 * MIN));
    expect(first.verdict).toBe('pending');
    const twice = ok(approve(first.state, ana, 'allow', 'tui', T0 + 7 * MIN));
    expect(twice.verdict).toBe('pending');
    expect(twice.state.quorum).toEqual({ needed: 2, approvals: [{ identity: 'ana', surface: 'dock', atMs: T0 + 6 * MIN }] });
    expect(approve(twice.state, { identity: 'eve', isAdmin: false }, 'allow', 'dock', T0)).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    const second = ok(approve(twice.state, cy, 'allow', 'telegram', T0 + 8 * MIN));
    expect(second.verdict).toBe('allowed');
    expect(second.state.quorum?.approvals.map((a) => a.identity)).toEqual(['ana', 'cy']);
    expect(ok(approve(first.state, bo, 'deny', 'dock', T0 + 8 * MIN)).verdict).toBe('denied');
  });

  it('[E5] without a quorum the first eligible Allow decides', () => {
    const s0: RouteState = startRoute(env, T0).state;
    expect(ok(approve(s0, ana, 'allow', 'dock', T0)).verdict).toBe('allowed');
  });
});
