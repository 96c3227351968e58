import type { HandlerTable } from './types.ts';

/** G12: thin over the policy room. */
export const policyHandlers: Pick<HandlerTable, 'policy.get' | 'policy.check' | 'policy.grant.revoke'> = {
  'policy.get': (_p, { core }) => core.policy.get(),
  'policy.check': (p, { core, conn }) => core.policy.check(conn.identity, p),
  'policy.grant.revoke': (p, { core, conn }) => core.policy.revoke(conn.identity, p.id),
};
