import { describe, expect, it } from 'vitest';
import { formatProblems, parseRouting } from './config.ts';
import { simpleToolMatcher } from './tool-matcher.ts';

const ctx = { identities: ['ana', 'bo', 'cy', 'deploy-bot'], tools: simpleToolMatcher };

const good = {
  groups: { ops: { members: ['ana', 'bo', 'cy'] } },
  schedules: {
    primary: {
      timezone: 'Europe/Berlin',
      layers: [{ members: ['ana', 'bo'], rotation: 'weekly', handoff: 'mon 09:00', restrict: ['mon-fri 09:00-18:00'] }],
      overrides: [{ member: 'cy', start: '2026-03-02T09:00', end: '2026-03-03T09:00' }],
    },
  },
  escalations: { prod: { steps: [{ notify: ['schedule:primary'], wait: '5m' }, { notify: ['group:ops', 'session-owner'], wait: '10m' }], repeat: 1, exhausted: 'deny' } },
  routes: [
    { match: { kind: 'approval', tool: 'Bash(git push *)' }, quorum: 2, continue: true },
    { match: { agent: 'deploy-*', source: 'hook:claude-code' }, escalation: 'prod' },
  ],
};

function problemsOf(raw: unknown): string[] {
  const r = parseRouting(raw, ctx);
  if (r.ok) throw new Error('expected faults');
  return r.problems.map((p) => `${p.path}: ${p.problem}`);
}

describe('the routing config', () => {
  it('[E1] a good block parses to durations in ms, parsed times and defaults', () => {
    const r = parseRouting(good, ctx);
    if (!r.ok) throw new Error(formatProblems(r.problems));
    expect(r.routing.escalations.prod).toMatchObject({ steps: [{ waitMs: 300_000 }, { waitMs: 600_000 }], repeat: 1, exhausted: 'deny', ackTimeoutMs: 1_800_000 });
    expect(r.routing.schedules.primary.layers[0].handoff).toEqual({ weekday: 1, minute: 540 });
    // The override's times are in the schedule's zone: 09:00 in Berlin in March is 08:00 UTC.
    expect(r.routing.schedules.primary.overrides[0].startMs).toBe(Date.parse('2026-03-02T08:00:00Z'));
    expect(r.routing.routes.map((x) => [x.index, x.escalation, x.quorum, x.continue])).toEqual([[0, undefined, 2, true], [1, 'prod', undefined, false]]);
  });

  it('[E4] ackTimeout: 30 minutes unless given, for every escalation at the top of the block or on one escalation for its own', () => {
    const esc = (extra: object = {}) => ({ steps: [{ notify: ['identity:ana'], wait: '5m' }], ...extra });
    const r = parseRouting({ ackTimeout: '10m', escalations: { a: esc(), b: esc({ ackTimeout: '1h' }) } }, ctx);
    if (!r.ok) throw new Error(formatProblems(r.problems));
    expect([r.routing.escalations.a.ackTimeoutMs, r.routing.escalations.b.ackTimeoutMs]).toEqual([600_000, 3_600_000]);
    expect(problemsOf({ ackTimeout: '1s', escalations: { a: esc() } })).toEqual(['routing.ackTimeout: must be between 5s and 24h, got "1s" (1s)']);
  });

  it('[E1] without routing nothing is routed', () => {
    expect(parseRouting(undefined, ctx)).toEqual({ ok: true, routing: { groups: {}, schedules: {}, escalations: {}, routes: [] } });
  });

  it('[E1] every fault is named by its path and problem, all at once', () => {
    const bad = {
      groups: { ops: { members: ['ana', 'zed'] } },
      schedules: {
        empty: { timezone: 'Europe/Berlin', layers: [] },
        moon: { timezone: 'Moon/Base', layers: [{ members: ['ana'], rotation: 'monthly', handoff: 'monday 9am', restrict: ['weekdays'] }] },
        back: { timezone: 'UTC', layers: [{ members: ['bo'], rotation: 'daily', handoff: '09:00' }], overrides: [{ member: 'bo', start: '2026-03-03T09:00', end: '2026-03-02T09:00' }] },
      },
      escalations: {
        prod: { steps: [{ notify: ['identity:zed', 'group:nope', 'schedule:nope', 'person:ana'], wait: '2s' }, { notify: ['group:ops'], wait: '25h' }], exhausted: 'allow' },
        slow: { steps: [{ notify: ['identity:ana'], wait: 'five minutes' }], repeat: -1 },
      },
      routes: [
        { match: { kind: 'question' }, escalation: 'prod', quorum: 2 },
        { match: { kind: 'approval' }, escalation: 'missing', quorum: 0 },
        { match: { source: 'email' }, escalaton: 'prod' },
        { match: { kind: 'question', tool: 'Bash(' } },
      ],
    };
    expect(problemsOf(bad)).toEqual([
      'routing.groups.ops.members[1]: "zed" is not the id of an identity in the config',
      'routing.schedules.empty.layers: a schedule needs at least one layer ({members, rotation, handoff})',
      'routing.schedules.moon.timezone: must be an IANA time zone such as "Europe/Berlin" or "America/New_York", got "Moon/Base"',
      'routing.schedules.moon.layers[0].rotation: must be "daily", "weekly" or "<n>h" such as "12h", got "monthly"',
      'routing.schedules.moon.layers[0].handoff: must be a weekday and a time such as "mon 09:00" (or "09:00" for daily and hourly rotations), got "monday 9am"',
      expect.stringMatching(/^routing\.schedules\.moon\.layers\[0\]\.restrict\[0\]: must be days and hours such as "mon-fri 09:00-18:00"/),
      'routing.schedules.back.overrides[0].end: the override ends before it starts',
      'routing.escalations.prod.steps[0].notify[0]: unknown target: "zed" is not the id of an identity in the config',
      'routing.escalations.prod.steps[0].notify[1]: unknown target: no group "nope" in routing.groups',
      'routing.escalations.prod.steps[0].notify[2]: unknown target: no schedule "nope" in routing.schedules',
      'routing.escalations.prod.steps[0].notify[3]: must be "identity:<id>", "group:<name>", "schedule:<name>" or "session-owner", got "person:ana"',
      'routing.escalations.prod.steps[0].wait: must be between 5s and 24h, got "2s" (2s)',
      'routing.escalations.prod.steps[1].wait: must be between 5s and 24h, got "25h" (25h)',
      'routing.escalations.prod.exhausted: may not be "allow": nothing is ever allowed because nobody answered (use "deny", "expire" or "keep")',
      'routing.escalations.slow.steps[0].wait: must be a duration such as "90s", "5m" or "1h30m", got "five minutes"',
      'routing.escalations.slow.repeat: must be a whole number 0..10 (how many more times the steps run), got -1',
      "routing.routes[0].quorum: a quorum counts approvals, and this route's kind never matches an approval",
      'routing.routes[1].escalation: unknown escalation "missing": not in routing.escalations',
      'routing.routes[1].quorum: must be a whole number of approvers, 1 or more, got 0',
      'routing.routes[2].escalaton: unknown field (known: match, escalation, quorum, continue)',
      'routing.routes[2].match.source: must be hook:<agent>, mcp-proxy:<server>, sdk, mcp or cli (globs allowed), got "email"',
      'routing.routes[2].escalation: a route names an escalation (only a route with "continue": true may leave it out)',
      'routing.routes[3].match.tool: must be a tool rule such as "Bash(git push *)" or "mcp__github__*", got "Bash("',
      "routing.routes[3].match.tool: a tool rule matches approvals only, and this route's kind leaves them out",
      'routing.routes[3].escalation: a route names an escalation (only a route with "continue": true may leave it out)',
    ]);
  });

  it('[E1] a weekly rotation names its handoff day; shifts must line up with days', () => {
    const s = (layer: object) => ({ schedules: { a: { timezone: 'UTC', layers: [{ members: ['ana'], ...layer }] } } });
    expect(problemsOf(s({ rotation: 'weekly', handoff: '09:00' }))).toEqual(['routing.schedules.a.layers[0].handoff: a "weekly" rotation hands off on a weekday: write it as "mon 09:00"']);
    expect(problemsOf(s({ rotation: '7h', handoff: '09:00' }))[0]).toMatch(/^routing\.schedules\.a\.layers\[0\]\.rotation: "7h": the hours must divide a day/);
    expect(problemsOf(s({ rotation: 'daily', handoff: '09:00', start: 'yesterday' }))[0]).toMatch(/^routing\.schedules\.a\.layers\[0\]\.start: must be a date and time/);
  });

  it('[E1] names, kinds and the block itself are checked', () => {
    expect(problemsOf([])).toEqual(['routing: must be an object']);
    expect(problemsOf({ groups: { 'on call': { members: ['ana'] } }, routes: [{ match: { kind: 'mail' }, escalation: 'x' }] })).toEqual([
      'routing.groups["on call"]: a name uses letters, digits, "_", "." and "-" only (and is not "__proto__")',
      'routing.routes[0].match.kind: must be one of question, approval, elicitation, secret (or a list of them), got "mail"',
      'routing.routes[0].escalation: unknown escalation "x": not in routing.escalations',
    ]);
    // A name that would reach the prototype of the object it is stored in.
    expect(problemsOf(JSON.parse('{"groups": {"__proto__": {"members": ["ana"]}}}'))).toEqual(['routing.groups.__proto__: a name uses letters, digits, "_", "." and "-" only (and is not "__proto__")']);
    expect(problemsOf({ routs: [] })).toEqual(['routing.routs: unknown field (known: groups, schedules, escalations, routes, ackTimeout)']);
  });
});
