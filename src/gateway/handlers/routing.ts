import type { HandlerTable } from './types.ts';

/** E4, E6, E12: thin over the routing room. */
export const routingHandlers: Pick<HandlerTable, 'question.ack' | 'question.handoff' | 'routing.status' | 'routing.test'> = {
  'question.ack': (p, { core, conn }) => core.routing.ack(conn.identity, p),
  'question.handoff': (p, { core, conn }) => core.routing.handoff(conn.identity, p),
  'routing.status': (_p, { core, conn }) => core.routing.status(conn.identity),
  'routing.test': (p, { core }) => core.routing.test(p),
};
