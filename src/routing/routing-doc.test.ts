/** docs/routing.md's worked example is a real config: the gateway's own config parser and the routing validator accept it. */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../gateway/auth.ts';
import { routingDocExample as docExample } from '../testing/routing-fixture.ts';
import { formatProblems, parseRouting } from './config.ts';
import { chooseRoute } from './match.ts';
import { onCallAt, schedulesStatus } from './schedule.ts';
import { requestOfRule, simpleToolMatcher } from './tool-matcher.ts';

describe('docs/routing.md', () => {
  it('[E1] the worked example passes the config parser and the routing validator', () => {
    const { raw } = docExample();
    const config = parseConfig(raw, 'docs/routing.md');
    const r = parseRouting(raw.routing, { identities: config.identities.map((i) => i.id), tools: simpleToolMatcher });
    if (!r.ok) throw new Error(formatProblems(r.problems));
    // What the prose says of it: a weekly Berlin rotation in business hours, the override, the two-person deploy route.
    const primary = r.routing.schedules.primary;
    expect(onCallAt(primary, Date.parse('2026-03-02T08:00:00Z'))?.identity).toBe('ana');
    expect(onCallAt(primary, Date.parse('2026-03-09T08:00:00Z'))?.identity).toBe('bo');
    expect(onCallAt(primary, Date.parse('2026-03-30T08:00:00Z'))).toMatchObject({ identity: 'cy', via: 'override' });
    expect(onCallAt(primary, Date.parse('2026-03-28T10:00:00Z'))).toBeNull();
    // E12 routing.status: Wednesday 2026-03-25 12:00 Berlin, Bo's week; at 18:00 nobody is on until Thursday 09:00.
    expect(schedulesStatus(r.routing.schedules, Date.parse('2026-03-25T11:00:00Z'))).toEqual([{ name: 'primary', now: 'bo', next: null, nextAtMs: Date.parse('2026-03-25T17:00:00Z') }]);
    const push = requestOfRule('Bash(git push origin main)') ?? undefined;
    expect(chooseRoute(r.routing.routes, { kind: 'approval', agent: 'deploy-1', tool: push }, simpleToolMatcher)).toEqual({ routes: [0], escalation: 'deploy', quorum: 2 });
    expect(chooseRoute(r.routing.routes, { kind: 'question', agent: 'deploy-1' }, simpleToolMatcher)).toEqual({ routes: [1], escalation: 'team' });
  });
});
