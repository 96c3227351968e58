/** The SDK's asking (T1-T5, Q9, Q11): question.request with a client-chosen id, waiting in slices, and cancelling on abort. */
import type { GatewayClient } from '../client/client.ts';
import { newId } from '../lib/ids.ts';
import { AskdockError, type ParamsInput, type Result } from '../protocol/index.ts';
import { toAskUserResult, type AskUserCall, type AskUserResult } from './ask-user-result.ts';

export type AskOptions = {
  sessionKey?: string;
  runId?: string;
  /** Aborting cancels the pending question at the gateway at once (T5) and rejects with an AbortError. */
  signal?: AbortSignal;
  /** Needs operator.admin or operator.questions to answer (A3). */
  privileged?: boolean;
  /** A question id of your own (1..128 of A-Z a-z 0-9 _ . : -); a random one otherwise. */
  id?: string;
  /**
   * In a session shared by several of this identity's askers (T6), wait for the session's pending blocking question
   * to end (Q11) and then ask, instead of failing with QUESTION_PENDING.
   */
  waitTurn?: boolean;
  /** Called once the gateway holds the question, before the wait: e.g. to show its link page (`questionPageUrl`). */
  onAsked?: (asked: Asked) => void;
  /** E1: what asks (`hook:claude-code`, `mcp-proxy:<server>`, `sdk`, `mcp`, `cli`), for the gateway's routes; `sdk` unless given. */
  askSource?: string;
  /** E1: the question asks an MCP server's elicitation (through the proxy or a hook): routes match it as kind `elicitation`. */
  elicitation?: boolean;
};

export type AsyncAskOptions = Omit<AskOptions, 'signal' | 'waitTurn' | 'onAsked'>;

export type Asked = { id: string; expiresAtMs: number | null };
type QuestionRequestInput = ParamsInput<'question.request'>;
type QuestionRequestResult = Result<'question.request'>;
type WaitAnswerResult = Result<'question.waitAnswer'>;

/** E1: what asks through the SDK when its caller names nothing else (the MCP server says `mcp`, the CLI `cli`, a hook `hook:…`). */
export const SDK_SOURCE = 'sdk';

/** How long one question.waitAnswer holds at the gateway before the SDK asks again. */
const WAIT_SLICE_MS = 20_000;
/** Extra time a wait may take on the wire before the client gives up on that one request. */
const WAIT_SLACK_MS = 15_000;
/** T5 asks for the cancel to reach the gateway within a second; wait about that long for its answer. */
const CANCEL_WAIT_MS = 1_000;

export function abortError(signal?: AbortSignal): Error {
  const reason = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const err = new Error(reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the question was aborted');
  err.name = 'AbortError';
  return err;
}

function isRetryable(err: unknown): boolean {
  return err instanceof AskdockError && err.code === 'UNAVAILABLE' && err.retryable === true;
}

export function newQuestionId(): string {
  return `q-${newId()}`;
}

/** Settles like `promise`, or rejects at once with an AbortError when `signal` aborts first (the caller cleans up). */
export function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** Q11 with `waitTurn`: the session's blocking question is this identity's own, so it may wait for it to end. */
export function requestInTurn(client: GatewayClient, id: string, call: AskUserCall, opts: AskOptions): Promise<Asked> {
  return inTurn(client, id, () => requestQuestion(client, id, call, 'blocking', opts), opts);
}

/** Sends a blocking question.request with `send`; with `waitTurn`, a QUESTION_PENDING of this identity's own is waited out first. */
export async function inTurn<T>(client: GatewayClient, id: string, send: () => Promise<T>, opts: Pick<AskOptions, 'waitTurn' | 'signal'>): Promise<T> {
  for (;;) {
    try {
      return await send();
    } catch (err) {
      const first = err instanceof AskdockError && err.code === 'QUESTION_PENDING' ? (err.details as { id?: string } | undefined)?.id : undefined;
      if (!opts.waitTurn || first === undefined || first === id) throw err;
      try {
        await waitForAnswer(client, first, opts.signal);
      } catch (waitErr) {
        if (opts.signal?.aborted) throw waitErr;
        throw err;
      }
    }
  }
}

/**
 * Q12: an item as the request sends it. A parsed `input` question holds an empty option list (the record's shape),
 * which a request refuses (2-4 options or none), so an item without options goes without the list.
 */
function asSent({ options, ...item }: AskUserCall['questions'][number]) {
  return options.length ? { ...item, options } : item;
}

/** question.request with a client-chosen id, retried over reconnects. */
export async function requestQuestion(
  client: GatewayClient,
  id: string,
  call: AskUserCall,
  mode: 'blocking' | 'async',
  opts: AsyncAskOptions,
): Promise<Asked> {
  const params = {
    id,
    mode,
    questions: call.questions.map(asSent),
    ...(opts.sessionKey ? { sessionKey: opts.sessionKey } : {}),
    ...(opts.runId ? { runId: opts.runId } : {}),
    ...(opts.privileged ? { privileged: true } : {}),
    source: opts.askSource ?? SDK_SOURCE,
    ...(opts.elicitation ? { elicitation: true } : {}),
    // Async questions wait for their answer forever unless a timeout was asked for (Q3).
    ...(mode === 'blocking' || call.timeoutGiven ? { timeoutMs: call.timeoutSeconds * 1000 } : {}),
  };
  return sendQuestion(client, params);
}

/** question.request retried over reconnects: the gateway answers a repeat of the same id with the same record, so it never asks twice. */
export async function sendQuestion(client: GatewayClient, params: QuestionRequestInput): Promise<QuestionRequestResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.request('question.request', params);
    } catch (err) {
      if (!isRetryable(err) || attempt >= 5) throw err;
      await client.ready(60_000);
    }
  }
}

/** question.waitAnswer in slices until the question ends; a wait cut by a reconnect is simply asked again. */
export async function waitForAnswer(client: GatewayClient, id: string, signal?: AbortSignal): Promise<AskUserResult> {
  const wait = await waitForEnd(client, id, signal);
  const result = toAskUserResult(wait.status, wait.answers, wait)!;
  return wait.receipt !== undefined ? { ...result, receipt: wait.receipt } : result;
}

/** The question's end as question.waitAnswer reports it (with an approval's `decision`, G11). */
export async function waitForEnd(client: GatewayClient, id: string, signal?: AbortSignal): Promise<WaitAnswerResult> {
  for (;;) {
    let wait;
    try {
      wait = await client.request(
        'question.waitAnswer',
        { id, timeoutMs: WAIT_SLICE_MS },
        { timeoutMs: WAIT_SLICE_MS + WAIT_SLACK_MS, signal },
      );
    } catch (err) {
      // A wait that outlived a slow reconnect is simply asked again; the question is still the same one.
      if (isRetryable(err) && !signal?.aborted) continue;
      throw err;
    }
    if (wait.status !== 'pending') return wait;
  }
}

/** Q1: the surface of what a hook (`hook`) or the MCP proxy (`mcp-proxy`) does to its own question; else the gateway's default. */
export function askerSurface(askSource: string | undefined): 'hook' | 'mcp-proxy' | undefined {
  const front = askSource?.split(':')[0];
  return front === 'hook' || front === 'mcp-proxy' ? front : undefined;
}

/** Withdraws a pending question (status `cancelled`). Resolves false when it had already ended or is unknown. */
export async function cancelQuestion(client: GatewayClient, id: string, reason: string, timeoutMs = CANCEL_WAIT_MS, surface?: string): Promise<boolean> {
  const r = await resolveShortly(client, { id, cancel: true, reason, ...(surface ? { surface } : {}) }, timeoutMs);
  return r?.status === 'cancelled';
}

/**
 * The asker's own question.resolve (its cancel, X5's Done), its answer waited for about a second: undefined when it
 * is refused or late. The request stays queued across a reconnect, so a late one still lands.
 */
export async function resolveShortly(client: GatewayClient, params: ParamsInput<'question.resolve'>, timeoutMs = CANCEL_WAIT_MS): Promise<Result<'question.resolve'> | undefined> {
  const sent = client.request('question.resolve', params, { timeoutMs: 30_000 });
  sent.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
  try {
    return await Promise.race([sent, late]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

