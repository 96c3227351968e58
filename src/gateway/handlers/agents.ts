import type { HandlerTable } from './types.ts';

/** U18 "Connect an agent": every agent identity with its token and presence; the method's scope is operator.admin (A5). */
export const agentHandlers: Pick<HandlerTable, 'agents.connectInfo'> = {
  'agents.connectInfo': (_p, { core }) => ({
    agents: [...core.auth.agentTokens].map(([id, token]) => ({
      id,
      token,
      presence: core.presence.ofAgent(id),
      demo: core.presence.isDemo(id),
    })),
  }),
};
