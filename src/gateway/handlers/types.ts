import type { ClientMode, MethodName, Params, Result } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { Core } from '../core.ts';
import type { Viewer } from '../sessions/visibility.ts';
import type { Cancellation } from '../hub/waiters.ts';

/** The authenticated side of one connection, as handlers see it. */
export type ConnInfo = {
  connId: string;
  identity: Identity;
  clientId: string;
  mode: ClientMode;
  /** Set by an in-process adapter that dispatches for its people (a channel: `channel:telegram`); sockets leave it out. */
  surface?: string;
  viewer: Viewer;
};

/** `cancellation`: the request's (P2 cancel, the socket closing), for handlers that wait. */
export type Ctx = { core: Core; conn: ConnInfo; cancellation: Cancellation };
export type Handler<M extends MethodName> = (params: Params<M>, ctx: Ctx) => Result<M> | Promise<Result<M>>;
export type HandlerTable = { [M in MethodName]: Handler<M> };
