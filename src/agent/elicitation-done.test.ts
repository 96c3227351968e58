/** X5: the proxy's Done for a url-mode step, when the gateway is slow to take it. */
import { afterEach, expect, it, vi } from 'vitest';
import { AskdockError } from '../protocol/index.ts';
import { askElicitation, type ElicitOutcome } from './elicitation.ts';
import type { Agent } from './sdk.ts';

afterEach(() => {
  vi.useRealTimers();
});

type Sent = { method: string; params: Record<string, unknown> };

/**
 * A gateway that takes the question and withdraws it at once, but whose answer to a Done never comes: the client gives
 * up on it after the request's own timeout, as the real one does (30 s unless told).
 */
function slowDoneGateway(sent: Sent[]) {
  const request = (method: string, params: Record<string, unknown>, opts: { timeoutMs?: number; signal?: AbortSignal } = {}) => {
    sent.push({ method, params });
    if (method === 'question.request') return Promise.resolve({ id: params.id, expiresAtMs: Date.now() + 600_000 });
    if (method === 'question.resolve' && params.cancel) return Promise.resolve({ status: 'cancelled' });
    return new Promise((_resolve, reject) => {
      if (method === 'question.waitAnswer') opts.signal?.addEventListener('abort', () => reject(opts.signal?.reason), { once: true });
      else setTimeout(() => reject(new AskdockError('UNAVAILABLE', 'the gateway did not answer in time', { retryable: true })), opts.timeoutMs ?? 30_000);
    });
  };
  return { client: { request } } as unknown as Agent;
}

it('[X5][T5] the server says the step is complete and the gateway is slow to take the Done: within a couple of seconds the step is accepted and its question withdrawn', async () => {
  vi.useFakeTimers();
  const sent: Sent[] = [];
  let complete = () => {};
  const completed = new Promise<void>((resolve) => (complete = resolve));
  let outcome: ElicitOutcome | undefined;
  const asking = askElicitation(slowDoneGateway(sent), { mode: 'url', message: 'Sign in', url: 'https://auth.example.com/login' }, {
    source: 'shop-tools',
    askSource: 'mcp-proxy:shop-tools',
    completed,
    onAsked: () => complete(),
  }).then((o) => (outcome = o));
  await vi.advanceTimersByTimeAsync(2_500);
  expect(outcome).toEqual({ action: 'accept' });
  expect(sent.filter((s) => s.method === 'question.resolve').map((s) => s.params)).toEqual([
    expect.objectContaining({ answers: { link: ['Done'] }, surface: 'mcp-proxy' }),
    expect.objectContaining({ cancel: true, surface: 'mcp-proxy' }),
  ]);
  await asking;
});
