import type { HandlerTable } from './types.ts';

type PushMethods = 'push.config' | 'push.subscribe' | 'push.unsubscribe';

/** U17: an identity's own browsers' push subscriptions. */
export const pushHandlers: Pick<HandlerTable, PushMethods> = {
  'push.config': (_p, { core }) => core.push.config(),
  'push.subscribe': (p, { core, conn }) => core.push.subscribe(conn.identity, p.subscription),
  'push.unsubscribe': (p, { core, conn }) => core.push.unsubscribe(conn.identity, p.endpoint),
};
