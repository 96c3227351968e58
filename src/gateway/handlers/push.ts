import type { HandlerTable } from './types.ts';

type PushMethods = 'push.config' | 'push.subscribe' | 'push.list' | 'push.unsubscribe';

/** U17: an identity's own browsers' push subscriptions. */
export const pushHandlers: Pick<HandlerTable, PushMethods> = {
  'push.config': async (_p, { core }) => await core.push.config(),
  'push.subscribe': async (p, { core, conn }) => await core.push.subscribe(conn.identity, p.subscription),
  'push.list': async (_p, { core, conn }) => await core.push.list(conn.identity),
  'push.unsubscribe': async (p, { core, conn }) => await core.push.unsubscribe(conn.identity, p),
};
