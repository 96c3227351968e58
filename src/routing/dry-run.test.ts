import { describe, expect, it } from 'vitest';
import { fixtureIdentities, fixtureRouting } from '../testing/routing-fixture.ts';
import { dryRun } from './dry-run.ts';
import { simpleToolMatcher } from './tool-matcher.ts';

const T0 = Date.parse('2026-03-25T09:00:00Z'); // Wed 10:00 Berlin: ana is on call.
const base = { routing: fixtureRouting(), atMs: T0, tools: simpleToolMatcher, identities: fixtureIdentities };

describe('routing.test', () => {
  it('[E12] the route, each step\'s people and time, and the steps the timeout comes before', () => {
    const r = dryRun({ ...base, facts: { kind: 'approval' }, timeoutMs: 4 * 60_000 });
    expect(r.route).toEqual({ routes: [0], escalation: 'prod', quorum: 2 });
    expect(r.steps.map((s) => ({ notify: s.notify, atMs: s.atMs }))).toEqual([{ notify: ['ana'], atMs: T0 }]);
    expect(r.unreached.map((s) => ({ notify: s.notify, atMs: s.atMs }))).toEqual([{ notify: ['ana', 'bo', 'cy', 'eve'], atMs: T0 + 5 * 60_000 }]);
    expect(r.exhausted).toEqual({ action: 'deny', atMs: T0 + 15 * 60_000, reached: false });
  });

  it('[E12] a question no route takes has no steps', () => {
    expect(dryRun({ ...base, facts: { kind: 'question' }, timeoutMs: 60_000 })).toEqual({ route: null, atMs: T0, expiresAtMs: T0 + 60_000, steps: [], unreached: [], exhausted: null });
  });
});
