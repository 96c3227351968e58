import { AskdockError, type MethodName, type ParamsInput, type Result } from '../../protocol/index.ts';
import { type GatewayConfig } from '../config.ts';
import type { Identity } from '../auth.ts';
import { RequestScope } from '../hub/hub.ts';
import type { ConnInfo } from '../handlers/types.ts';
import { newId } from '../infra/ids.ts';
import type { ChannelDispatch, ChannelParts } from './parts.ts';
import { retryTransient, type TransientRetry } from './transient-retry.ts';

/**
 * The calls a channel makes that change state and may go again (P7): each carries the key that makes a repeat answer as
 * the first did, or, as `question.ack` (E12, no key), is harmless twice: a try that answered UNAVAILABLE was undone,
 * and were one kept after all, the same identity's second ack only takes the question again from a moment later.
 */
export type KeyedMethod = 'chat.send' | 'question.resolve' | 'sessions.create' | 'question.ack';

/**
 * H4: what a channel does for a platform user goes through the same method dispatch (scopes, A3 visibility,
 * validation) as any client, as the mapped identity, on an in-process connection whose surface is `channel:<name>`.
 */
export class ChannelCaller {
  private readonly identities = new Map<string, Identity>();
  private readonly conns = new Map<string, ConnInfo>();

  constructor(
    private readonly hub: Pick<ChannelParts['hub'], 'whenDurable' | 'request' | 'laned'>,
    private readonly dispatch: ChannelDispatch,
    config: GatewayConfig,
    private readonly surface: string,
    private readonly retry: TransientRetry = {},
  ) {
    for (const entry of config.identities)
      this.identities.set(entry.id, { id: entry.id, role: entry.role, scopes: new Set(entry.scopes) });
  }

  identity(id: string): Identity | undefined {
    return this.identities.get(id);
  }

  private conn(identity: Identity): ConnInfo {
    let conn = this.conns.get(identity.id);
    if (!conn) {
      conn = {
        connId: newId('c'),
        identity,
        clientId: `${this.surface}:${identity.id}`,
        mode: 'ui',
        surface: this.surface,
        viewer: { identity, subscribed: () => false },
      };
      this.conns.set(identity.id, conn);
    }
    return conn;
  }

  /** Calls `method` as `identityId`; resolves once its writes are durable (R3), as a socket's answer would. */
  async call<M extends MethodName>(identityId: string, method: M, params: ParamsInput<M>): Promise<Result<M>> {
    const identity = this.identities.get(identityId);
    if (!identity) throw new AskdockError('UNAUTHORIZED', `no identity "${identityId}" in the config`);
    const conn = this.conn(identity);
    const run = () => this.dispatch(method, params, conn);
    // Units in lanes (a shared database): the call's own scope, as a socket's request has (connection.ts), so it waits
    // for the groups its own units joined and an UNAVAILABLE means its own change was undone, not another lane's group
    // (a retry of a change without a key, `question.ack`, would otherwise apply it twice). The channel's calls for a
    // person run one at a time and each waited for its own durability, so nothing earlier is waited for.
    const scope = this.hub.laned ? new RequestScope() : undefined;
    let result: Result<M>;
    try {
      result = (await (scope ? this.hub.request(scope, () => Promise.resolve(), run) : run())) as Result<M>;
    } finally {
      scope?.finish();
    }
    await new Promise<void>((done, fail) =>
      this.hub.whenDurable(
        (committed) =>
          committed ? done() : fail(new AskdockError('UNAVAILABLE', `${method} was undone: the gateway could not save it`, { retryable: true })),
        scope,
      ),
    );
    return result;
  }

  /**
   * R3 for a person's answer, message or "I'm on it": `call`, gone through again with the same params (one key for every try) while
   * the gateway answers that it could not save it (transient-retry.ts); any other error is thrown at once.
   */
  change<M extends KeyedMethod>(identityId: string, method: M, params: ParamsInput<M>): Promise<Result<M>> {
    return retryTransient(() => this.call(identityId, method, params), this.retry);
  }
}
