import { describe, expect, it } from 'vitest';
import { parseRouting } from './config.ts';
import { startRoute, type RouteEnv, type RouteState } from './state.ts';
import { simpleToolMatcher } from './tool-matcher.ts';
import { describeRoute } from './view.ts';
import { fixtureIdentities, fixtureRouting, maySee } from '../testing/routing-fixture.ts';

const MIN = 60_000;
const T0 = Date.parse('2026-03-25T09:00:00Z'); // Wed 10:00 Berlin: ana is on call.
const routing = fixtureRouting({ escalations: { twice: { steps: [{ notify: ['schedule:primary'], wait: '5m' }, { notify: ['group:ops'], wait: '10m' }], repeat: 1 } } });
const envOf = (name: string): RouteEnv => ({ escalation: routing.escalations[name], kind: 'question', targets: { routing, maySee, identities: fixtureIdentities } });
const displayName = (id: string) => id[0].toUpperCase() + id.slice(1);

describe('the route in words (E9)', () => {
  it('[E9] names who it waits for by display name (a schedule by its person now), the next step by its group, nothing unreached without an expiry', () => {
    const env = envOf('prod');
    const route = startRoute(env, T0).state;
    expect(describeRoute({ route, escalation: env.escalation, targets: env.targets, expiresAtMs: null, nowMs: T0, displayName })).toEqual({ waitsFor: ['Ana'], next: ['ops'], unreached: [] });
  });

  it('[E9] the steps the question expires before are "not reached": the next one too when it comes after the expiry', () => {
    const env = envOf('twice');
    const route = startRoute(env, T0).state;
    // Steps at +0 (Ana), +5m (ops), +15m (Ana again), +20m (ops again); expiring at +16m leaves the last one unreached.
    const view = (expiresAtMs: number) => describeRoute({ route, escalation: env.escalation, targets: env.targets, expiresAtMs, nowMs: T0, displayName });
    expect(view(T0 + 16 * MIN)).toEqual({ waitsFor: ['Ana'], next: ['ops'], unreached: ['ops'] });
    expect(view(T0 + 4 * MIN)).toEqual({ waitsFor: ['Ana'], unreached: ['ops', 'Ana', 'ops'] });
  });
});

describe('who a step notified, across a shift hand-over (E9)', () => {
  // Daily shifts at 09:00Z: ana on Wednesday 2026-03-25, bo from Thursday 09:00.
  const parsed = parseRouting(
    {
      schedules: { primary: { timezone: 'UTC', layers: [{ members: ['ana', 'bo'], rotation: 'daily', handoff: '09:00', start: '2026-03-23T09:00' }] } },
      escalations: { team: { steps: [{ notify: ['schedule:primary'], wait: '5m' }, { notify: ['identity:cy'], wait: '5m' }] } },
    },
    { identities: fixtureIdentities, tools: simpleToolMatcher },
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const env: RouteEnv = { escalation: parsed.routing.escalations.team, kind: 'question', targets: { routing: parsed.routing, maySee, identities: fixtureIdentities } };
  const asked = Date.parse('2026-03-26T08:58:00Z');
  const view = (route: RouteState, nowMs: number) => describeRoute({ route, escalation: env.escalation, targets: env.targets, expiresAtMs: null, nowMs, displayName });

  it('[E9] the running step names whom it notified (Ana), not whom the schedule reaches after the hand-over (Bo)', () => {
    const route = startRoute(env, asked).state;
    expect(view(route, asked + 2 * MIN)).toEqual({ waitsFor: ['Ana'], next: ['Cy'], unreached: [] });
  });

  it('[E9] a route stored without whom its step reached names the schedule\'s person at the time it is shown', () => {
    const { stepReached: _unknown, ...route } = startRoute(env, asked).state;
    expect(view(route, asked + 2 * MIN)).toEqual({ waitsFor: ['Bo'], next: ['Cy'], unreached: [] });
  });
});
