import type { GatewayConfig } from '../gateway/config.ts';
import { testConfig } from './gateway-harness.ts';
import type { TestGateway } from './gateway-harness.ts';

/** Three people who answer questions (Ana, Bo and Cy), beside the usual test identities. */
export const PEOPLE = ['ana', 'bo', 'cy'] as const;
export type Person = (typeof PEOPLE)[number];
export const personToken = (id: Person) => `token-of-person-${id}-0123456789`;

/**
 * A two-step escalation (Ana, then the ops group of Bo and Cy; 5 and 10 minutes, denied when it runs out) for approvals
 * (two approvers) and ask_user questions (kept when it runs out); what an agent's hook asks goes to Bo.
 */
export const routingConfig: GatewayConfig = {
  ...testConfig,
  identities: [
    ...testConfig.identities,
    ...PEOPLE.map((id) => ({ id, name: id[0].toUpperCase() + id.slice(1), token: personToken(id), role: 'operator' as const, scopes: ['operator.questions' as const] })),
  ],
  routing: {
    groups: { ops: { members: ['bo', 'cy'] } },
    escalations: {
      deploy: { steps: [{ notify: ['identity:ana'], wait: '5m' }, { notify: ['group:ops'], wait: '10m' }], exhausted: 'deny' },
      hooks: { steps: [{ notify: ['identity:bo'], wait: '5m' }], exhausted: 'expire' },
      team: { steps: [{ notify: ['identity:ana'], wait: '5m' }, { notify: ['group:ops'], wait: '10m' }], exhausted: 'keep' },
    },
    routes: [
      { match: { kind: ['approval'] }, escalation: 'deploy', quorum: 2 },
      { match: { source: 'hook:*' }, escalation: 'hooks' },
      { match: { kind: ['question'] }, escalation: 'team' },
    ],
  },
};

export async function connectPerson(t: TestGateway, id: Person) {
  const c = await t.open();
  const res = await c.connect(personToken(id));
  if (!res.ok) throw new Error(`connect as ${id} failed: ${JSON.stringify(res.error)}`);
  return c;
}

/** Questions go to Ana, then after `first` to the ops group (Bo and Cy) for `second`; kept for everyone notified after. */
export function twoStepConfig(first: string, second: string): GatewayConfig {
  return {
    ...routingConfig,
    routing: {
      groups: { ops: { members: ['bo', 'cy'] } },
      escalations: { team: { steps: [{ notify: ['identity:ana'], wait: first }, { notify: ['group:ops'], wait: second }], exhausted: 'keep' } },
      routes: [{ match: { kind: ['question'] }, escalation: 'team' }],
    },
  };
}
