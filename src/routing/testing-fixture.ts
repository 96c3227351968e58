/** A routing config the plan and state tests share: a business-hours rotation in Berlin, then the team. */
import { parseRouting } from './config.ts';
import { simpleToolMatcher } from './tool-matcher.ts';
import type { RoutingConfig } from './types.ts';

export function fixtureRouting(extra: { escalations?: object } = {}): RoutingConfig {
  const r = parseRouting(
    {
      groups: { ops: { members: ['ana', 'bo', 'cy', 'eve'] } },
      schedules: {
        primary: {
          timezone: 'Europe/Berlin',
          layers: [{ members: ['ana', 'bo'], rotation: 'daily', handoff: '09:00', start: '2026-03-23T00:00', restrict: ['mon-fri 09:00-18:00'] }],
        },
      },
      escalations: {
        prod: { steps: [{ notify: ['schedule:primary'], wait: '5m' }, { notify: ['group:ops'], wait: '10m' }] },
        ...extra.escalations,
      },
      routes: [{ match: { kind: 'approval' }, escalation: 'prod', quorum: 2 }],
    },
    { identities: ['ana', 'bo', 'cy', 'eve', 'root'], tools: simpleToolMatcher },
  );
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.routing;
}

/** A3 in the tests: eve may not see the question. */
export const maySee = (identity: string) => identity !== 'eve';
