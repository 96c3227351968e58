import type { GatewayClient } from '../client/client.ts';
import { AskdockError, type HelloOk, type SecretOutcome, type SecretRequestInput } from '../protocol/index.ts';

export type SecretInput = { name: string; description: string; timeoutSeconds?: number };
export type SecretOptions = { sessionKey?: string; runId?: string; signal?: AbortSignal };
/** Never the value: a command reads it with `askdock secret get NAME`. */
export type SecretResult = { status: SecretOutcome; name: string };

/** How long one secret.waitResult holds at the gateway before the SDK asks again. */
const WAIT_SLICE_MS = 20_000;
const WAIT_SLACK_MS = 15_000;

/** RU1: a denied identity's hello-ok lists no question.request (and no secret.request). */
export function askingDenied(hello: HelloOk | null | undefined): boolean {
  return !!hello && !hello.features.methods.includes('question.request');
}

function abortError(signal: AbortSignal): Error {
  const err = new Error(signal.reason instanceof Error ? signal.reason.message : 'the secret request was aborted');
  err.name = 'AbortError';
  return err;
}

/** W4: secret.request, then secret.waitResult in slices until an outcome; an abort cancels the request at the gateway. */
export async function requestSecret(client: GatewayClient, input: SecretInput, opts: SecretOptions): Promise<SecretResult> {
  const { signal } = opts;
  if (signal?.aborted) throw abortError(signal);
  const params: SecretRequestInput = {
    name: input.name,
    description: input.description,
    ...(input.timeoutSeconds !== undefined ? { timeoutMs: Math.round(input.timeoutSeconds * 1000) } : {}),
    ...(opts.sessionKey ? { sessionKey: opts.sessionKey } : {}),
    ...(opts.runId ? { runId: opts.runId } : {}),
  };
  const { id } = await client.request('secret.request', params);
  try {
    return await waitOutcome(client, id, signal);
  } catch (err) {
    if (!signal?.aborted) throw err;
    await client.request('secret.cancel', { id, reason: 'aborted' }, { timeoutMs: 1_000 }).catch(() => undefined);
    throw abortError(signal);
  }
}

async function waitOutcome(client: GatewayClient, id: string, signal: AbortSignal | undefined): Promise<SecretResult> {
  for (;;) {
    try {
      const wait = await client.request(
        'secret.waitResult',
        { id, timeoutMs: WAIT_SLICE_MS },
        { timeoutMs: WAIT_SLICE_MS + WAIT_SLACK_MS, ...(signal ? { signal } : {}) },
      );
      if (wait.status !== 'pending') return { status: wait.status, name: wait.name };
    } catch (err) {
      // After a dropped connection the same request is waited on again.
      if (!(err instanceof AskdockError && err.code === 'UNAVAILABLE' && err.retryable) || signal?.aborted) throw err;
    }
  }
}
