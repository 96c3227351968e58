/**
 * The Node SDK for agents: connect to a gateway, ask the user (blocking or async), open runs and talk in a session.
 *
 *   const agent = await connect({ url: 'ws://127.0.0.1:7420', token });
 *   const result = await agent.askUser({ questions: [...] }, { sessionKey, signal });
 */
import { randomUUID } from 'node:crypto';
import { createNodeClient } from '../client/node.ts';
import { gatewayUrls, type GatewayClient } from '../client/client.ts';
import {
  AskdockError,
  type ChatMessage,
  type ClientMode,
  type HelloOk,
  type Phase,
  type Session,
  type StopReason,
} from '../protocol/index.ts';
import { ownSessionParams, type OwnSessionOptions } from './own-session.ts';
import { parseAskUser, toAskUserResult, type AskUserCall, type AskUserInput, type AskUserResult } from './ask-user.ts';
import { askingDenied, requestSecret, type SecretInput, type SecretOptions, type SecretResult } from './sdk-secrets.ts';

export type ConnectOptions = {
  /** One gateway, or several (D4: a list or `ws://a:7420,ws://b:7420`), tried in turn. */
  url: string | readonly string[];
  token: string;
  /** Shown to operators as the client name. */
  name?: string;
  mode?: Extract<ClientMode, 'agent' | 'mcp' | 'cli'>;
  /**
   * How long the first connection may take. When it fails (gateway down, bad token) `connect` rejects
   * instead of retrying forever; later drops always reconnect.
   */
  connectTimeoutMs?: number;
  /** Backoff for reconnects (tests shorten it). */
  backoff?: { initialMs?: number; maxMs?: number };
};

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
  onAsked?: (asked: { id: string; expiresAtMs: number | null }) => void;
};

export type AsyncAskOptions = Omit<AskOptions, 'signal' | 'waitTurn' | 'onAsked'>;

export type UserMessage = ChatMessage & { role: 'user' };

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

/** RU2: the run lost its turn (a newer user message, or an abort); end it and say nothing more. */
export function isSuperseded(err: unknown): boolean {
  return err instanceof AskdockError && err.code === 'RUN_SUPERSEDED';
}

function isRetryable(err: unknown): boolean {
  return err instanceof AskdockError && err.code === 'UNAVAILABLE' && err.retryable === true;
}

function newQuestionId(): string {
  return `q-${randomUUID()}`;
}

/** Settles like `promise`, or rejects at once with an AbortError when `signal` aborts first (the caller cleans up). */
function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
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

export class Agent {
  readonly client: GatewayClient;
  private readonly subscriptions = new Map<string, Set<(m: UserMessage) => void>>();
  private readonly seenMessages = new Set<string>();
  private readonly offHello: () => void;
  private readonly offChat: () => void;

  constructor(client: GatewayClient) {
    this.client = client;
    // A fresh connection has no subscriptions: subscribe again for every handler registered.
    this.offHello = client.onHello(() => {
      for (const key of this.subscriptions.keys()) this.subscribe(key).catch(() => undefined);
    });
    this.offChat = client.on('chat', (payload) => this.dispatchChat(payload.message, payload.state));
  }

  /** The identity this agent is connected as. */
  get identity(): string | undefined {
    return this.client.hello?.auth.identity;
  }

  /**
   * Asks and waits (T1, T2). Resolves `{status:"answered", answers:{answers}}` or `{status:"no_answer", reason}`;
   * throws AskdockError INVALID_REQUEST with every problem in `details` for a bad call, or an AbortError when aborted.
   * A dropped connection is survived: the same question is waited on after the reconnect.
   */
  async askUser(input: AskUserInput, opts: AskOptions = {}): Promise<AskUserResult> {
    const call = parseAskUser(input);
    this.requireMayAsk('question.request');
    const { signal } = opts;
    if (signal?.aborted) throw abortError(signal);
    const id = opts.id ?? newQuestionId();
    try {
      const asked = await raceAbort(this.requestInTurn(id, call, opts), signal);
      opts.onAsked?.(asked);
      return await this.waitForAnswer(id, signal);
    } catch (err) {
      if (signal?.aborted) {
        await this.cancelQuestion(id, 'aborted');
        throw abortError(signal);
      }
      throw err;
    }
  }

  /** Asks without waiting (Q9): the answer arrives later as a user message with `replyTo.questionId`. */
  async askUserAsync(input: AskUserInput, opts: AsyncAskOptions = {}): Promise<{ id: string; expiresAtMs: number | null }> {
    const call = parseAskUser(input);
    this.requireMayAsk('question.request');
    return this.requestQuestion(opts.id ?? newQuestionId(), call, 'async', opts);
  }

  /** Withdraws a pending question (status `cancelled`). Resolves false when it had already ended or is unknown. */
  async cancelQuestion(id: string, reason = 'cancelled by the asker', timeoutMs = CANCEL_WAIT_MS): Promise<boolean> {
    const sent = this.client.request('question.resolve', { id, cancel: true, reason }, { timeoutMs: 30_000 });
    // The request stays queued across a reconnect; the caller only waits about a second for its answer.
    sent.catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)));
    try {
      const r = await Promise.race([sent, late]);
      return r !== 'late' && r.status === 'cancelled';
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A6: a session bound to this agent; the same `idempotencyKey` returns the same session, also after a restart. */
  async createSession(opts: { title?: string; idempotencyKey?: string } = {}): Promise<Session> {
    const { session } = await this.client.request('sessions.create', opts);
    return session;
  }

  /** T6: the conversation of its own an agent asks in when it names no session (see own-session.ts). */
  async ownSession(opts: OwnSessionOptions): Promise<Session> {
    return this.createSession(ownSessionParams(opts));
  }


  /**
   * RU1: whether this identity may ask at all (its config may deny ask_user). A subagent run (`parentRunId`)
   * may not ask either; the gateway refuses it with FORBIDDEN reason "non-primary-run".
   */
  get mayAsk(): boolean {
    return !askingDenied(this.client.hello);
  }

  private requireMayAsk(method: 'question.request' | 'secret.request'): void {
    if (!this.mayAsk)
      throw new AskdockError('FORBIDDEN', `identity "${this.identity}" may not ask the user: the gateway config denies it the ask_user tool`, {
        details: { method, reason: 'denied' },
      });
  }

  /**
   * W4/K1: asks a person for a secret through a masked prompt and waits. Resolves `{status, name}`: never the value,
   * which a command reads with `askdock secret get NAME` (or `getSecret(name)` with scope agent.secrets).
   */
  async requestSecret(input: SecretInput, opts: SecretOptions = {}): Promise<SecretResult> {
    this.requireMayAsk('secret.request');
    return requestSecret(this.client, input, opts);
  }

  /** K1: a stored secret's value (scope agent.secrets); AskdockError SECRET_NOT_FOUND when none is stored. */
  async getSecret(name: string): Promise<string> {
    return (await this.client.request('secret.get', { name })).value;
  }

  /** C4: opens a run (in a session, or sessionless); `parentRunId` makes it a subagent run (RU1), which may not ask. */
  async startRun(sessionKey?: string, opts: { parentRunId?: string } = {}): Promise<string> {
    const { runId } = await this.client.request('run.start', {
      ...(sessionKey ? { sessionKey } : {}),
      ...(opts.parentRunId ? { parentRunId: opts.parentRunId } : {}),
    });
    return runId;
  }

  /**
   * C4: a complete assistant message in the run's session. RU2: when a newer user turn superseded the run (or it was
   * aborted) the run is ended (`cancelled`) and the AskdockError RUN_SUPERSEDED is thrown, so the caller stops quietly.
   */
  async say(runId: string, text: string, opts: { phase?: Phase } = {}): Promise<string> {
    return this.inject(runId, { text, state: 'final', ...(opts.phase ? { phase: opts.phase } : {}) });
  }

  /** C4: the text so far of the run's streaming message (each delta replaces the last); finish it with `say`. */
  async stream(runId: string, text: string): Promise<string> {
    return this.inject(runId, { text, state: 'delta' });
  }

  private async inject(runId: string, p: { text: string; state: 'delta' | 'final'; phase?: Phase }): Promise<string> {
    try {
      return (await this.client.request('chat.inject', { runId, ...p })).messageId;
    } catch (err) {
      if (isSuperseded(err)) await this.endRun(runId, 'cancelled').catch(() => undefined);
      throw err;
    }
  }

  async endRun(runId: string, stopReason: StopReason, opts: { phase?: Phase } = {}): Promise<void> {
    await this.client.request('run.end', { runId, stopReason, ...(opts.phase ? { phase: opts.phase } : {}) });
  }

  /**
   * C6: calls `handler` for each user message in `sessionKey` (every session the agent may serve when omitted).
   * Resolves once subscribed; the returned function unsubscribes locally.
   */
  async onUserMessage(handler: (message: UserMessage) => void, opts: { sessionKey?: string } = {}): Promise<() => void> {
    const key = opts.sessionKey ?? '';
    let set = this.subscriptions.get(key);
    const first = !set;
    if (!set) this.subscriptions.set(key, (set = new Set()));
    set.add(handler);
    if (first) {
      try {
        await this.subscribe(key);
      } catch (err) {
        this.subscriptions.delete(key);
        throw err;
      }
    }
    return () => {
      set.delete(handler);
    };
  }

  close(): void {
    this.offHello();
    this.offChat();
    this.client.close();
  }

  private async subscribe(key: string): Promise<void> {
    await this.client.request('agent.subscribe', key ? { sessionKey: key } : {});
  }

  private dispatchChat(message: ChatMessage, state: 'delta' | 'final') {
    if (message.role !== 'user' || state !== 'final') return;
    // A resumed connection replays events; each user message is handed over once.
    if (this.seenMessages.has(message.id)) return;
    this.seenMessages.add(message.id);
    if (this.seenMessages.size > 5000) this.seenMessages.delete(this.seenMessages.values().next().value as string);
    const handlers = [...(this.subscriptions.get(message.sessionKey) ?? []), ...(this.subscriptions.get('') ?? [])];
    for (const h of handlers) {
      try {
        h(message as UserMessage);
      } catch (err) {
        process.stderr.write(`askdock agent: a user-message handler threw: ${String(err)}\n`);
      }
    }
  }

  /** Q11 with `waitTurn`: the session's blocking question is this identity's own, so it may wait for it to end. */
  private async requestInTurn(id: string, call: AskUserCall, opts: AskOptions): Promise<{ id: string; expiresAtMs: number | null }> {
    for (;;) {
      try {
        return await this.requestQuestion(id, call, 'blocking', opts);
      } catch (err) {
        const first = err instanceof AskdockError && err.code === 'QUESTION_PENDING' ? (err.details as { id?: string } | undefined)?.id : undefined;
        if (!opts.waitTurn || first === undefined || first === id) throw err;
        try {
          await this.waitForAnswer(first, opts.signal);
        } catch (waitErr) {
          if (opts.signal?.aborted) throw waitErr;
          throw err;
        }
      }
    }
  }

  /** question.request with a client-chosen id, retried over reconnects. */
  private async requestQuestion(
    id: string,
    call: AskUserCall,
    mode: 'blocking' | 'async',
    opts: AsyncAskOptions,
  ): Promise<{ id: string; expiresAtMs: number | null }> {
    const params = {
      id,
      mode,
      questions: call.questions,
      ...(opts.sessionKey ? { sessionKey: opts.sessionKey } : {}),
      ...(opts.runId ? { runId: opts.runId } : {}),
      ...(opts.privileged ? { privileged: true } : {}),
      // Async questions wait for their answer forever unless a timeout was asked for (Q3).
      ...(mode === 'blocking' || call.timeoutGiven ? { timeoutMs: call.timeoutSeconds * 1000 } : {}),
    };
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.client.request('question.request', params);
      } catch (err) {
        // The gateway answers a repeat of the same ask with the same record, so retrying after a drop never asks twice.
        if (!isRetryable(err) || attempt >= 5) throw err;
        await this.client.ready(60_000);
      }
    }
  }

  private async waitForAnswer(id: string, signal?: AbortSignal): Promise<AskUserResult> {
    for (;;) {
      let wait;
      try {
        wait = await this.client.request(
          'question.waitAnswer',
          { id, timeoutMs: WAIT_SLICE_MS },
          { timeoutMs: WAIT_SLICE_MS + WAIT_SLACK_MS, signal },
        );
      } catch (err) {
        // A wait that outlived a slow reconnect is simply asked again; the question is still the same one.
        if (isRetryable(err) && !signal?.aborted) continue;
        throw err;
      }
      const result = toAskUserResult(wait.status, wait.answers);
      if (result) return result;
    }
  }
}

/** Connects as an agent and resolves once the gateway said hello; rejects with an AskdockError when it cannot. */
export async function connect(opts: ConnectOptions): Promise<Agent> {
  const client = createNodeClient({
    url: opts.url,
    token: opts.token,
    client: { name: opts.name ?? 'askdock-agent', mode: opts.mode ?? 'agent', platform: process.platform },
    ...(opts.backoff ? { backoff: opts.backoff } : {}),
  });
  await startOrFail(client, opts.url, opts.connectTimeoutMs ?? 10_000);
  return new Agent(client);
}

/** The first connect fails fast (unreachable, refused, timed out) instead of the client's endless retry. */
export async function startOrFail(client: GatewayClient, urls: string | readonly string[], timeoutMs: number): Promise<HelloOk> {
  const url = gatewayUrls(urls).join(', ');
  let offState = () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const failed = new Promise<never>((_, reject) => {
    offState = client.onState((s) => {
      // D4: with several gateways, only once each of them failed.
      if ((s.status === 'reconnecting' || s.status === 'offline') && s.attempt >= client.urlCount) {
        reject(new AskdockError('UNAVAILABLE', `cannot reach the gateway at ${url}: ${s.lastError?.message ?? 'connection failed'}`, { retryable: true }));
      }
    });
    timer = setTimeout(
      () => reject(new AskdockError('UNAVAILABLE', `no answer from the gateway at ${url} within ${timeoutMs} ms`, { retryable: true })),
      timeoutMs,
    );
  });
  const started = client.start();
  // close() below settles start() too; that outcome is already reported through `failed`.
  started.catch(() => undefined);
  try {
    return await Promise.race([started, failed]);
  } catch (err) {
    client.close();
    throw err;
  } finally {
    offState();
    clearTimeout(timer);
  }
}
