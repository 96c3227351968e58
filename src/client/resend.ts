import { AskdockError } from '../protocol/askdock-error.ts';
import type { MethodName, ParamsInput, Result } from '../protocol/index.ts';
import { backoffDelay } from '../lib/backoff.ts';
import type { GatewayClient } from './client.ts';

/** The client gave up on a request (its timeout ran out on a dead socket, a reconnect took too long): the gateway may never have seen it. */
function gaveUp(err: unknown): boolean {
  return err instanceof AskdockError && err.code === 'UNAVAILABLE' && err.retryable === true;
}

/**
 * P7 for a request that is idempotent by its own key (`question.resolve` with its `resolutionId`, `chat.send` with its
 * `idempotencyKey`): where the client gives up on it, it goes again with the very same params once the connection is back,
 * until the gateway answers. Every other outcome, and a closed client, settles as `client.request` would.
 */
export async function requestUntilAnswered<M extends MethodName>(client: GatewayClient, method: M, params: ParamsInput<M>): Promise<Result<M>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.request(method, params);
    } catch (err) {
      if (!gaveUp(err)) throw err;
    }
    const wasConnected = client.state.status === 'connected';
    await untilConnected(client);
    // Connected all along (a slow or busy gateway): wait a little before asking again.
    if (wasConnected) await new Promise((r) => setTimeout(r, backoffDelay(attempt, { jitter: true })));
  }
}

/** Resolves once the client is connected; rejects only when it closed for good. */
async function untilConnected(client: GatewayClient): Promise<void> {
  for (;;) {
    try {
      return await client.ready(60_000);
    } catch (err) {
      if (!gaveUp(err)) throw err;
    }
  }
}
