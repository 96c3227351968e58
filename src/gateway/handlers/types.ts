import type { ClientMode, MethodName, Params, Result } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { Core } from '../core.ts';
import type { Viewer } from '../visibility.ts';

/** The authenticated side of one connection, as handlers see it. */
export type ConnInfo = {
  connId: string;
  identity: Identity;
  clientId: string;
  mode: ClientMode;
  viewer: Viewer;
  /** Where answers sent on this connection come from when a request does not say (in-process channels: `channel:<name>`). */
  surface?: string;
};

export type Ctx = { core: Core; conn: ConnInfo; signal: AbortSignal };
export type Handler<M extends MethodName> = (params: Params<M>, ctx: Ctx) => Result<M> | Promise<Result<M>>;
export type HandlerTable = { [M in MethodName]: Handler<M> };
