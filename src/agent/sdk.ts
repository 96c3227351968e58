/**
 * The Node SDK for agents: connect to a gateway, ask the user (blocking or async), open runs and talk in a session.
 *
 *   const agent = await connect({ url: 'ws://127.0.0.1:7420', token });
 *   const result = await agent.askUser({ questions: [...] }, { sessionKey, signal });
 */
import { createNodeClient } from '../client/node.ts';
import type { GatewayClient } from '../client/client.ts';
import {
  AskdockError,
  type ClientMode,
  type Phase,
  type Session,
  type StopReason,
} from '../protocol/index.ts';
import { ownSessionParams, type OwnSessionOptions } from './own-session.ts';
import type { AskUserInput, AskUserResult } from './ask-user.ts';
import {
  abortError,
  cancelQuestion,
  newQuestionId,
  raceAbort,
  requestInTurn,
  requestQuestion,
  waitForAnswer,
  type AskOptions,
  type AsyncAskOptions,
} from './sdk-ask.ts';
import { UserMessages, type UserMessage } from './sdk-messages.ts';
import { askingDenied, requestSecret, type SecretInput, type SecretOptions, type SecretResult } from './sdk-secrets.ts';

export { abortError, type AskOptions, type AsyncAskOptions } from './sdk-ask.ts';
export type { UserMessage } from './sdk-messages.ts';

/**
 * T3: an ask_user call checked. ask-user.ts (its zod schemas, the JSON Schema made from them) loads with the first
 * call: a hook or proxy that never calls askUser starts without it.
 */
const parseCall = async (input: AskUserInput) => (await import('./ask-user.ts')).parseAskUser(input);

export type ConnectOptions = {
  /** One gateway, or several (D4: a list or `ws://a:7420,ws://b:7420`), tried in turn. */
  url: string | readonly string[];
  token: string;
  /** Shown to operators as the client name. */
  name?: string;
  mode?: Extract<ClientMode, 'agent' | 'mcp' | 'cli'>;
  /**
   * A client id that stays the same across restarts of this agent: the gateway keeps its pending blocking questions
   * waiting while it is away for less than the requester grace (Q7), so a restarted agent can take them back.
   */
  clientId?: string;
  /**
   * How long the first connection may take. When it fails (gateway down, bad token) `connect` rejects
   * instead of retrying forever; later drops always reconnect.
   */
  connectTimeoutMs?: number;
  /** Backoff for reconnects (tests shorten it). */
  backoff?: { initialMs?: number; maxMs?: number };
};

/** RU2: the run lost its turn (a newer user message, or an abort); end it and say nothing more. */
export function isSuperseded(err: unknown): boolean {
  return err instanceof AskdockError && err.code === 'RUN_SUPERSEDED';
}

export class Agent {
  readonly client: GatewayClient;
  private readonly userMessages: UserMessages;

  constructor(client: GatewayClient) {
    this.client = client;
    this.userMessages = new UserMessages(client);
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
    const call = await parseCall(input);
    this.requireMayAsk('question.request');
    const { signal } = opts;
    if (signal?.aborted) throw abortError(signal);
    const id = opts.id ?? newQuestionId();
    let asked;
    try {
      asked = await raceAbort(requestInTurn(this.client, id, call, opts), signal);
    } catch (err) {
      throw await this.abandoned(id, err, signal);
    }
    opts.onAsked?.(asked);
    return this.waitAnswer(id, { signal });
  }

  /**
   * Waits for the answer to a question this agent asked earlier (e.g. before it restarted), as `askUser` does after asking.
   * Aborting cancels the question at the gateway (T5).
   */
  async waitAnswer(id: string, opts: { signal?: AbortSignal } = {}): Promise<AskUserResult> {
    try {
      return await waitForAnswer(this.client, id, opts.signal);
    } catch (err) {
      throw await this.abandoned(id, err, opts.signal);
    }
  }

  /** T5: an aborted ask withdraws its question at the gateway and ends in an AbortError; any other failure stays as it is. */
  private async abandoned(id: string, err: unknown, signal?: AbortSignal): Promise<unknown> {
    if (!signal?.aborted) return err;
    await this.cancelQuestion(id, 'aborted');
    return abortError(signal);
  }

  /** Asks without waiting (Q9): the answer arrives later as a user message with `replyTo.questionId`. */
  async askUserAsync(input: AskUserInput, opts: AsyncAskOptions = {}): Promise<{ id: string; expiresAtMs: number | null }> {
    const call = await parseCall(input);
    this.requireMayAsk('question.request');
    return requestQuestion(this.client, opts.id ?? newQuestionId(), call, 'async', opts);
  }

  /** Withdraws a pending question (status `cancelled`). Resolves false when it had already ended or is unknown. */
  cancelQuestion(id: string, reason = 'cancelled by the asker', timeoutMs?: number): Promise<boolean> {
    return cancelQuestion(this.client, id, reason, timeoutMs);
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
    return this.userMessages.add(handler, opts.sessionKey);
  }

  close(): void {
    this.userMessages.close();
    this.client.close();
  }
}

/** Connects as an agent and resolves once the gateway said hello; rejects with an AskdockError when it cannot. */
export async function connect(opts: ConnectOptions): Promise<Agent> {
  const client = createNodeClient({
    url: opts.url,
    token: opts.token,
    client: {
      name: opts.name ?? 'askdock-agent',
      mode: opts.mode ?? 'agent',
      platform: process.platform,
      ...(opts.clientId !== undefined ? { id: opts.clientId } : {}),
    },
    ...(opts.backoff ? { backoff: opts.backoff } : {}),
  });
  // The first connect fails fast (unreachable, refused, timed out) instead of the client's endless retry.
  await client.start({ attempts: 1, giveUpAfterMs: opts.connectTimeoutMs ?? 10_000 });
  return new Agent(client);
}
