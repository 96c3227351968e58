/** Test doubles for the outbox: a gateway client with a tiny in-memory chat.send, and a BroadcastChannel hub. */
import type { ConnectionState, ConnectionStatus } from '../client/client.ts';
import { AskdockError, type ChatMessage, type EventName, type EventPayload, type MethodName } from '../protocol/index.ts';
import { createOutbox, type ChannelLike, type Outbox, type OutboxClient, type OutboxOptions } from '../ui/lib/outbox/outbox.ts';
import { createMemoryStorage } from '../ui/lib/outbox/storage.ts';
import { Listeners } from '../lib/listeners.ts';

export type Call = {
  method: MethodName;
  params: Record<string, unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  settled: boolean;
};

type Reply = { messageId: string; seq: number };

/**
 * A fake gateway client. With `autoAnswer` it behaves like the real gateway for chat.send (the same key answers
 * the first result with `deduped:true`, a second answer to a question is QUESTION_ALREADY_TERMINAL) and
 * chat.history; without it, tests settle each call by hand. Like the real client, a drop keeps chat.send pending.
 */
export class FakeClient implements OutboxClient {
  state: ConnectionState;
  autoAnswer = true;
  readonly calls: Call[] = [];
  readonly messages: ChatMessage[] = [];
  readonly byKey = new Map<string, Reply>();
  /** Errors the next chat.send calls answer with, in order (before any saving). */
  readonly failNext: AskdockError[] = [];
  private seq = 0;
  private readonly stateHandlers = new Listeners<[ConnectionState]>();
  private readonly chatHandlers = new Listeners<[EventPayload<'chat'>]>();

  constructor(status: ConnectionStatus = 'connected') {
    this.state = { status, attempt: 0 };
  }

  get sends(): Call[] {
    return this.calls.filter((c) => c.method === 'chat.send');
  }

  onState(handler: (s: ConnectionState) => void): () => void {
    return this.stateHandlers.add(handler);
  }

  on<E extends EventName>(event: E, handler: (payload: EventPayload<E>, seq?: number) => void): () => void {
    if (event !== 'chat') return () => {};
    const h = handler as unknown as (p: EventPayload<'chat'>) => void;
    return this.chatHandlers.add(h);
  }

  request = ((method: MethodName, params: unknown, opts: { signal?: AbortSignal } = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const call: Call = {
        method,
        params: params as Record<string, unknown>,
        settled: false,
        resolve: (v) => {
          if (call.settled) return;
          call.settled = true;
          resolve(v);
        },
        reject: (e) => {
          if (call.settled) return;
          call.settled = true;
          reject(e);
        },
      };
      this.calls.push(call);
      opts.signal?.addEventListener('abort', () => call.reject(new DOMException('aborted', 'AbortError')), { once: true });
      if (this.autoAnswer && this.state.status === 'connected') queueMicrotask(() => this.answer(call));
    })) as OutboxClient['request'];

  /** Answers a call as the gateway would. */
  answer(call: Call): void {
    if (call.settled) return;
    if (call.method === 'chat.history') {
      const key = call.params.sessionKey;
      call.resolve({ messages: this.messages.filter((m) => m.sessionKey === key), hasMore: false });
      return;
    }
    if (call.method !== 'chat.send') return call.reject(new AskdockError('METHOD_NOT_FOUND', `fake has no ${call.method}`));
    const failure = this.failNext.shift();
    if (failure) return call.reject(failure);
    const p = call.params as { sessionKey: string; message: string; idempotencyKey: string; replyTo?: ChatMessage['replyTo'] };
    const first = this.byKey.get(p.idempotencyKey);
    if (first) return call.resolve({ ...first, deduped: true });
    const questionId = p.replyTo?.questionId;
    if (questionId && this.messages.some((m) => m.replyTo?.questionId === questionId))
      return call.reject(
        new AskdockError('QUESTION_ALREADY_TERMINAL', `question "${questionId}" is already answered`, { details: { id: questionId } }),
      );
    const reply = { messageId: `m${this.messages.length + 1}`, seq: ++this.seq };
    this.byKey.set(p.idempotencyKey, reply);
    const message: ChatMessage = {
      id: reply.messageId,
      sessionKey: p.sessionKey,
      role: 'user',
      text: p.message,
      authorId: 'operator',
      ...(p.replyTo ? { replyTo: p.replyTo } : {}),
      createdAtMs: Date.now(),
      seq: reply.seq,
    };
    this.messages.push(message);
    call.resolve({ ...reply, deduped: false });
  }

  /** Saves the message on the gateway but loses the answer, as a drop right after the write would. */
  saveWithoutAnswer(call: Call): void {
    const resolve = call.resolve;
    call.resolve = () => {};
    this.answer(call);
    call.resolve = resolve;
  }

  setStatus(status: ConnectionStatus): void {
    this.state = { status, attempt: status === 'connected' ? 0 : this.state.attempt + 1 };
    this.stateHandlers.emit(this.state);
  }

  drop(): void {
    this.setStatus('reconnecting');
  }

  /** Reconnects; the real client re-sends every unanswered chat.send (it carries its key), so this does too. */
  reconnect(): void {
    this.setStatus('connected');
    if (this.autoAnswer) for (const call of this.calls.filter((c) => !c.settled)) queueMicrotask(() => this.answer(call));
  }

  emitChat(message: ChatMessage): void {
    this.chatHandlers.emit({ sessionKey: message.sessionKey, message, state: 'final' });
  }
}

/** BroadcastChannel stand-ins that deliver to every other member asynchronously, as the real one does. */
export function channelHub() {
  const members = new Set<FakeChannel>();
  class FakeChannel implements ChannelLike {
    private readonly listeners = new Set<(ev: { data: unknown }) => void>();
    closed = false;
    postMessage(message: unknown) {
      const data = structuredClone(message);
      for (const m of members)
        if (m !== this) setTimeout(() => !m.closed && m.listeners.forEach((l) => l({ data })), 0);
    }
    addEventListener(_type: 'message', l: (ev: { data: unknown }) => void) {
      this.listeners.add(l);
    }
    removeEventListener(_type: 'message', l: (ev: { data: unknown }) => void) {
      this.listeners.delete(l);
    }
    close() {
      this.closed = true;
      members.delete(this);
    }
  }
  return {
    open(): ChannelLike {
      const c = new FakeChannel();
      members.add(c);
      return c;
    },
  };
}

/** Makes outboxes for a test (memory storage unless given, errors kept quiet); `disposeAll` in afterEach ends them. */
export function outboxMaker() {
  const open: Outbox[] = [];
  return {
    make(client: OutboxClient, extra: Partial<OutboxOptions> = {}): Outbox {
      const outbox = createOutbox({ client, storage: extra.storage ?? createMemoryStorage(), onError: () => {}, ...extra });
      open.push(outbox);
      return outbox;
    },
    disposeAll() {
      for (const o of open.splice(0)) o.dispose();
    },
  };
}
