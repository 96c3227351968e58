/** Routing configs the tests share: a business-hours rotation in Berlin then the team, and the docs' worked example. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRouting } from '../routing/config.ts';
import { simpleToolMatcher } from '../routing/tool-matcher.ts';
import type { RoutingConfig } from '../routing/types.ts';

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
    { identities: fixtureIdentities, tools: simpleToolMatcher },
  );
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.routing;
}

/** The fixture's identity ids. */
export const fixtureIdentities = ['ana', 'bo', 'cy', 'eve', 'root'];

/** A3 in the tests: eve may not see the question. */
export const maySee = (identity: string) => identity !== 'eve';

/** The first ```json block of docs/routing.md: its worked example, a whole gateway config. */
export function routingDocExample(): { text: string; raw: { routing: unknown } } {
  const doc = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../docs/routing.md'), 'utf8');
  const text = /```json\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!text) throw new Error('docs/routing.md has no json block');
  return { text, raw: JSON.parse(text) as { routing: unknown } };
}
