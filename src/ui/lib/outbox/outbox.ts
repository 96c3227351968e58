import { z } from 'zod';
import type { GatewayClient } from '../../../client/client.ts';
import { AskdockError, type Answers, type ChatMessage, type ParamsInput } from '../../../protocol/index.ts';
import { OutboxRow, transition, type OutboxError, type OutboxEvent } from './machine.ts';
import type { OutboxStorage } from './storage.ts';

/** What the outbox needs from the gateway client; `on('chat')`, when there, confirms rows from live messages. */
export type OutboxClient = Pick<GatewayClient, 'request' | 'onState' | 'state'> & Partial<Pick<GatewayClient, 'on'>>;

/** The part of BroadcastChannel the outbox uses, so tests can pass a fake. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (ev: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (ev: { data: unknown }) => void): void;
  close?(): void;
}

export const OUTBOX_CHANNEL = 'askdock-outbox';

export type OutboxOptions = {
  client: OutboxClient;
  storage: OutboxStorage;
  /** BroadcastChannel(OUTBOX_CHANNEL) or alike; the outbox owns it and closes it on dispose. */
  channel?: ChannelLike | null;
  now?: () => number;
  tabId?: string;
  /** How long a tab's claim to send a row lasts without renewal (a closed tab's claim runs out). */
  leaseMs?: number;
  /** Sent rows are kept this long for the summaries, then pruned at start. */
  keepSentMs?: number;
  newId?: () => string;
  onError?: (error: unknown) => void;
};

export type EnqueueInput = { sessionKey: string; questionId: string; text: string; answers?: Answers };

export interface Outbox {
  readonly tabId: string;
  /** Resolves once stored rows are loaded. */
  ready(): Promise<void>;
  /** Queues an answer; a question that already has a live row gets that row back (never a second answer). */
  enqueue(input: EnqueueInput): Promise<OutboxRow>;
  /** Sends a failed or unconfirmed row again, with its same idempotency key. */
  retry(id: string): Promise<OutboxRow | undefined>;
  /** Removes a queued, failed or unconfirmed row; returns it (to reopen its draft), or undefined when it could not go. */
  discard(id: string): Promise<OutboxRow | undefined>;
  /** Changes a queued or failed row's text; its structured answers are dropped. */
  edit(id: string, text: string): Promise<OutboxRow | undefined>;
  /** Oldest first; the same array until something changes (fit for useSyncExternalStore). */
  rows(sessionKey?: string): readonly OutboxRow[];
  row(id: string): OutboxRow | undefined;
  rowForQuestion(questionId: string): OutboxRow | undefined;
  subscribe(listener: () => void): () => void;
  /** Rows discarded in this tab or another one, so every open pane can reopen that draft. */
  onDiscarded(listener: (row: OutboxRow) => void): () => void;
  /** Marks rows sent whose message shows in saved history (chat.history or a `chat` event); returns how many. */
  confirmFromHistory(messages: readonly ChatMessage[]): Promise<number>;
  /** Runs one sending pass now (tests, "try again now"); resolves when the pass has started its sends. */
  pump(): Promise<void>;
  dispose(): void;
}

const Broadcast = z.discriminatedUnion('kind', [
  z.object({ v: z.literal(1), from: z.string(), kind: z.literal('changed'), ids: z.array(z.string()) }),
  z.object({ v: z.literal(1), from: z.string(), kind: z.literal('discarded'), row: OutboxRow }),
]);
type Broadcast = z.infer<typeof Broadcast>;

const DEFAULT_LEASE_MS = 10_000;
const DEFAULT_KEEP_SENT_MS = 7 * 24 * 3600_000;
const HISTORY_LOOKUP_LIMIT = 200;

function randomId(): string {
  const c = globalThis.crypto;
  if (c?.randomUUID) return c.randomUUID();
  const part = () => Math.random().toString(36).slice(2);
  return `${Date.now().toString(36)}-${part()}-${part()}`;
}

const normalisedText = (text: string) => text.replace(/\r\n/g, '\n').trim();

/** A saved message is this row's answer when it has the row's message id, or replies to its question with its text. */
export function messageConfirmsRow(row: OutboxRow, message: ChatMessage): boolean {
  if (row.messageId !== undefined && message.id === row.messageId) return true;
  return (
    message.role === 'user' &&
    message.sessionKey === row.sessionKey &&
    message.replyTo?.questionId === row.questionId &&
    normalisedText(message.text) === normalisedText(row.text)
  );
}

function errorOf(err: unknown): OutboxError & { retryable: boolean; retryAfterMs?: number; aborted: boolean } {
  const e = err as { code?: unknown; message?: unknown; retryable?: unknown; retryAfterMs?: unknown; name?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : 'ERROR';
  return {
    code,
    message: typeof e?.message === 'string' && e.message ? e.message : String(err),
    // RATE_LIMITED always means "later" (PROTOCOL: it carries retryAfterMs), flag or not.
    retryable: e?.retryable === true || code === 'RATE_LIMITED',
    retryAfterMs: typeof e?.retryAfterMs === 'number' ? e.retryAfterMs : undefined,
    aborted: e?.name === 'AbortError',
  };
}

type InFlight = { abort: AbortController };
type Commit = { before: OutboxRow | undefined; after: OutboxRow | null | undefined };

/**
 * The outbox for async answers (PRODUCT U9-U11, PROTOCOL C2/Q9): rows are persisted first, then sent one at a
 * time per session whenever the client is connected, each always with its own idempotency key.
 */
export function createOutbox(options: OutboxOptions): Outbox {
  const { client, storage } = options;
  const channel = options.channel ?? null;
  const now = options.now ?? Date.now;
  const tabId = options.tabId ?? randomId();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const keepSentMs = options.keepSentMs ?? DEFAULT_KEEP_SENT_MS;
  const newId = options.newId ?? randomId;
  const onError = options.onError ?? ((error: unknown) => console.error('outbox:', error));

  const cache = new Map<string, OutboxRow>();
  const listeners = new Set<() => void>();
  const discardListeners = new Set<(row: OutboxRow) => void>();
  const inFlight = new Map<string, InFlight>();
  /** The connection on which an unconfirmed row was last re-sent on its own, so it is tried once per connection. */
  const autoTried = new Map<string, number>();
  /** Retryable refusals (RATE_LIMITED) wait until then. */
  const notBefore = new Map<string, number>();
  let epoch = 0;
  let connected = client.state.status === 'connected';
  if (connected) epoch = 1;
  let disposed = false;
  let pumping: Promise<void> | null = null;
  let pumpAgain = false;
  let wakeTimer: ReturnType<typeof setTimeout> | undefined;
  let renewTimer: ReturnType<typeof setInterval> | undefined;
  let allRows: readonly OutboxRow[] | null = null;
  const bySession = new Map<string, readonly OutboxRow[]>();
  /** Sessions whose list was rebuilt since the last change. */
  const fresh = new Set<string>();

  // ---- snapshot and listeners

  const notify = () => {
    allRows = null;
    fresh.clear();
    for (const l of [...listeners]) l();
  };
  const sorted = (): readonly OutboxRow[] =>
    (allRows ??= [...cache.values()].sort((a, b) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id)));

  const broadcast = (message: Broadcast) => {
    try {
      channel?.postMessage(message);
    } catch (err) {
      onError(err);
    }
  };
  const changed = (...ids: string[]) => broadcast({ v: 1, from: tabId, kind: 'changed', ids });
  const emitDiscarded = (row: OutboxRow) => {
    for (const l of [...discardListeners]) l(row);
  };

  // What a person can see of a row: lease renewals alone re-render nothing.
  const visible = (row: OutboxRow) => JSON.stringify({ ...row, sendingBy: undefined, leaseExpiresAtMs: undefined });

  const leasedByOther = (row: OutboxRow, at = now()) =>
    row.sendingBy !== undefined && row.sendingBy !== tabId && (row.leaseExpiresAtMs ?? 0) > at;
  const released = (row: OutboxRow): OutboxRow => {
    if (row.sendingBy !== tabId) return row;
    const { sendingBy: _by, leaseExpiresAtMs: _until, ...rest } = row;
    return rest;
  };

  /** Reads the stored row, applies `change` and writes it back in one transaction; the cache follows the stored truth. */
  async function commit(id: string, change: (stored: OutboxRow) => OutboxRow | null, opts: { quiet?: boolean } = {}): Promise<Commit> {
    const res = await storage.transact<Commit>((rows) => {
      const before = rows.get(id);
      if (!before) return { result: { before, after: undefined } };
      const after = change(before);
      if (after === before) return { result: { before, after } };
      if (after === null) return { remove: [id], result: { before, after } };
      return { put: [after], result: { before, after } };
    });
    if (disposed) return res;
    if (res.after === undefined || res.after === null) {
      if (cache.delete(id)) notify();
    } else {
      const cached = cache.get(id);
      if (!cached || visible(cached) !== visible(res.after)) {
        cache.set(id, res.after);
        notify();
      } else if (JSON.stringify(cached) !== JSON.stringify(res.after)) cache.set(id, res.after);
    }
    if (res.after === null && res.before) {
      stopSending(id);
      broadcast({ v: 1, from: tabId, kind: 'discarded', row: res.before });
      emitDiscarded(res.before);
    } else if (res.after && res.after !== res.before && !opts.quiet) changed(id);
    return res;
  }

  const dispatch = (id: string, event: OutboxEvent, opts?: { release?: boolean }) =>
    commit(id, (stored) => {
      const next = transition(stored, event, now());
      if (next === null || !opts?.release) return next;
      const free = released(next);
      return free === stored ? stored : free;
    });

  function stopSending(id: string) {
    inFlight.get(id)?.abort.abort();
    inFlight.delete(id);
    autoTried.delete(id);
    notBefore.delete(id);
  }

  // ---- sending

  function schedulePump(): Promise<void> {
    if (disposed) return Promise.resolve();
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    pumping = (async () => {
      try {
        do {
          pumpAgain = false;
          await pumpOnce();
        } while (pumpAgain && !disposed);
      } catch (err) {
        onError(err);
      } finally {
        pumping = null;
      }
    })();
    return pumping;
  }

  /** The row a session sends next, or the time to look again; one at a time per session, oldest first. */
  function nextFor(rows: readonly OutboxRow[], at: number): { row?: OutboxRow; wakeAt?: number } {
    for (const row of rows) {
      if (inFlight.has(row.id)) return {};
      if (leasedByOther(row, at)) return { wakeAt: row.leaseExpiresAtMs };
      if (row.state === 'queued') {
        const wait = notBefore.get(row.id);
        return wait !== undefined && wait > at ? { wakeAt: wait } : { row };
      }
      // A 'sending' row nobody holds is a send whose tab went away: its outcome is unknown, so it goes again.
      if (row.state === 'sending') return { row };
      if (row.state === 'unconfirmed' && autoTried.get(row.id) !== epoch) return { row };
    }
    return {};
  }

  async function pumpOnce() {
    clearTimeout(wakeTimer);
    if (!connected || disposed) return;
    const at = now();
    const sessions = new Map<string, OutboxRow[]>();
    for (const row of sorted()) {
      if (row.state === 'sent' || row.state === 'failed') continue;
      const list = sessions.get(row.sessionKey) ?? [];
      list.push(row);
      sessions.set(row.sessionKey, list);
    }
    let wakeAt = Infinity;
    for (const rows of sessions.values()) {
      const next = nextFor(rows, at);
      if (next.wakeAt !== undefined) wakeAt = Math.min(wakeAt, next.wakeAt);
      if (next.row) await startSend(next.row);
    }
    if (wakeAt !== Infinity && !disposed) wakeTimer = setTimeout(() => void schedulePump(), Math.max(0, wakeAt - now()) + 5);
  }

  /** Claims the row's send lease in storage (so no other tab sends it), then sends it. */
  async function startSend(candidate: OutboxRow) {
    const { after } = await commit(candidate.id, (stored) => {
      const at = now();
      if (leasedByOther(stored, at)) return stored;
      let row = stored;
      if (row.state === 'sending') row = transition(row, { type: 'connectionLost' }, at) ?? row;
      const next = transition(row, { type: 'sendStarted' }, at);
      if (!next || next === row) return stored;
      return { ...next, sendingBy: tabId, leaseExpiresAtMs: at + leaseMs };
    });
    if (!after || after.state !== 'sending' || after.sendingBy !== tabId || inFlight.has(after.id) || disposed) return;
    // An uncertain row goes again on its own once per connection, never in a loop.
    autoTried.set(after.id, epoch);
    send(after);
  }

  function send(row: OutboxRow) {
    const abort = new AbortController();
    inFlight.set(row.id, { abort });
    armRenewal();
    const params: ParamsInput<'chat.send'> = {
      sessionKey: row.sessionKey,
      message: row.text,
      idempotencyKey: row.idempotencyKey,
      replyTo: row.answers ? { questionId: row.questionId, answers: row.answers } : { questionId: row.questionId },
    };
    const settle = async (work: () => Promise<unknown>) => {
      if (inFlight.get(row.id)?.abort !== abort) return; // discarded, retried or disposed meanwhile
      try {
        await work();
      } catch (err) {
        onError(err);
      }
      // Only now, with the outcome stored, may a pump look at this row again.
      if (inFlight.get(row.id)?.abort === abort) inFlight.delete(row.id);
      void schedulePump();
    };
    client.request('chat.send', params, { signal: abort.signal }).then(
      (result) =>
        settle(async () => {
          notBefore.delete(row.id);
          await dispatch(row.id, { type: 'sendSucceeded', messageId: result.messageId, seq: result.seq }, { release: true });
        }),
      (err: unknown) => settle(() => failed(row, err)),
    );
  }

  async function failed(row: OutboxRow, err: unknown) {
    const e = errorOf(err);
    if (e.aborted) return;
    const error: OutboxError = { code: e.code, message: e.message };
    if (e.code === 'UNAVAILABLE') {
      // The client gave up on the request (dropped, timed out, closed): it may or may not have been saved.
      autoTried.set(row.id, epoch);
      await dispatch(row.id, { type: 'connectionLost' }, { release: true });
      return;
    }
    if (e.code === 'QUESTION_ALREADY_TERMINAL' && (await foundInHistory(row))) return;
    if (e.retryable) notBefore.set(row.id, now() + (e.retryAfterMs ?? Math.min(30_000, 1000 * 2 ** Math.max(0, row.attempts - 1))));
    await dispatch(row.id, { type: 'sendFailed', error, retryable: e.retryable }, { release: true });
  }

  /** The question is answered already: perhaps by this very row on an earlier attempt whose result was lost. */
  async function foundInHistory(row: OutboxRow): Promise<boolean> {
    try {
      const { messages } = await client.request('chat.history', { sessionKey: row.sessionKey, limit: HISTORY_LOOKUP_LIMIT });
      const match = messages.find((m) => messageConfirmsRow(row, m));
      if (!match) return false;
      await dispatch(row.id, { type: 'confirmedByHistory', messageId: match.id }, { release: true });
      return true;
    } catch {
      return false;
    }
  }

  /** Keeps this tab's claims alive while its sends are out; other tabs take over only a claim that ran out. */
  function armRenewal() {
    if (renewTimer !== undefined) return;
    renewTimer = setInterval(() => {
      if (inFlight.size === 0) {
        clearInterval(renewTimer);
        renewTimer = undefined;
        return;
      }
      for (const id of inFlight.keys())
        void commit(
          id,
          (stored) => (stored.sendingBy === tabId ? { ...stored, leaseExpiresAtMs: now() + leaseMs } : stored),
          { quiet: true },
        ).catch(onError);
    }, Math.max(50, Math.floor(leaseMs / 3)));
  }

  // ---- connection, other tabs, live messages

  const offState = client.onState((state) => {
    const isConnected = state.status === 'connected';
    if (isConnected && !connected) {
      connected = true;
      epoch++;
      void schedulePump();
    } else if (!isConnected && connected) {
      connected = false;
      // Sends still out may have reached the gateway; the client re-sends chat.send itself once it is back.
      for (const id of inFlight.keys()) void dispatch(id, { type: 'connectionLost' }).catch(onError);
    }
  });

  async function reload(ids: readonly string[]) {
    let dirty = false;
    for (const id of ids) {
      const row = await storage.get(id);
      if (disposed) return;
      if (!row) dirty = cache.delete(id) || dirty;
      else {
        const cached = cache.get(id);
        if (!cached || visible(cached) !== visible(row)) dirty = true;
        cache.set(id, row);
      }
    }
    if (dirty) notify();
    void schedulePump();
  }

  const onMessage = (ev: { data: unknown }) => {
    const parsed = Broadcast.safeParse(ev.data);
    if (!parsed.success || parsed.data.from === tabId || disposed) return;
    const msg = parsed.data;
    if (msg.kind === 'changed') void reload(msg.ids).catch(onError);
    else {
      stopSending(msg.row.id);
      if (cache.delete(msg.row.id)) notify();
      emitDiscarded(msg.row);
    }
  };
  channel?.addEventListener('message', onMessage);

  const offChat = client.on?.('chat', (payload) => {
    if (payload.state === 'final') void outbox.confirmFromHistory([payload.message]).catch(onError);
  });

  // ---- start

  const loaded = (async () => {
    const cutoff = now() - keepSentMs;
    const rows = await storage
      .transact((stored) => {
        const old = [...stored.values()].filter((r) => r.state === 'sent' && r.updatedAtMs < cutoff).map((r) => r.id);
        return { remove: old, result: [...stored.values()].filter((r) => !old.includes(r.id)) };
      })
      .catch((err: unknown) => {
        // Unreadable storage must not block answering: start empty, and each write reports its own failure.
        onError(err);
        return [] as OutboxRow[];
      });
    if (disposed) return;
    for (const row of rows) if (!cache.has(row.id)) cache.set(row.id, row);
    notify();
    void schedulePump();
  })();

  // ---- the API

  const outbox: Outbox = {
    tabId,
    ready: () => loaded,

    async enqueue(input) {
      if (!input.text.trim())
        throw new AskdockError('INVALID_REQUEST', 'an outbox answer needs text: format it with formatAsyncAnswerText first');
      await loaded;
      // Strictly after every known row, so two answers queued in one millisecond keep their order.
      const at = Math.max(now(), ...[...cache.values()].map((r) => r.createdAtMs + 1));
      const fresh: OutboxRow = {
        id: newId(),
        idempotencyKey: `outbox-${newId()}`,
        sessionKey: input.sessionKey,
        questionId: input.questionId,
        text: input.text,
        ...(input.answers ? { answers: input.answers } : {}),
        state: 'queued',
        createdAtMs: at,
        updatedAtMs: at,
        attempts: 0,
      };
      const { row, replaced } = await storage.transact((rows) => {
        const existing = [...rows.values()].find((r) => r.questionId === input.questionId && r.sessionKey === input.sessionKey);
        if (existing?.state === 'queued') {
          // Never sent yet: take the newer answer on the same row and key.
          const { answers: _a, ...rest } = existing;
          const updated: OutboxRow = { ...rest, text: input.text, ...(input.answers ? { answers: input.answers } : {}), updatedAtMs: at };
          return { put: [updated], result: { row: updated, replaced: undefined } };
        }
        // Sending, unconfirmed or sent: that answer may already be saved, so it stays the only one.
        if (existing && existing.state !== 'failed') return { result: { row: existing, replaced: undefined } };
        // A failed row was refused by the gateway, so a fresh row (and key) replaces it.
        return { put: [fresh], remove: existing ? [existing.id] : [], result: { row: fresh, replaced: existing } };
      });
      if (disposed) return row;
      if (replaced) {
        cache.delete(replaced.id);
        stopSending(replaced.id);
      }
      cache.set(row.id, row);
      notify();
      changed(row.id, ...(replaced ? [replaced.id] : []));
      void schedulePump();
      return row;
    },

    async retry(id) {
      await loaded;
      const { before, after } = await commit(id, (stored) => {
        const next = transition(stored, { type: 'retryRequested' }, now());
        return next === null || next === stored ? stored : released(next);
      });
      if (after && before && after !== before) {
        // A send still out for this row is dropped; the new one carries the same key, so at most one message exists.
        inFlight.get(id)?.abort.abort();
        inFlight.delete(id);
        notBefore.delete(id);
        autoTried.delete(id);
      }
      void schedulePump();
      return after ?? undefined;
    },

    async discard(id) {
      await loaded;
      const { before, after } = await dispatch(id, { type: 'discarded' });
      return after === null ? before : undefined;
    },

    async edit(id, text) {
      await loaded;
      const { after } = await dispatch(id, { type: 'edited', text });
      return after ?? undefined;
    },

    rows(sessionKey) {
      if (sessionKey === undefined) return sorted();
      const prev = bySession.get(sessionKey);
      if (prev && fresh.has(sessionKey)) return prev;
      const list = sorted().filter((r) => r.sessionKey === sessionKey);
      // Same rows as before: hand back the same array, so a change in another session re-renders nothing here.
      const same = prev !== undefined && prev.length === list.length && prev.every((r, i) => r === list[i]);
      if (!same) bySession.set(sessionKey, list);
      fresh.add(sessionKey);
      return same ? prev : list;
    },

    row: (id) => cache.get(id),

    rowForQuestion(questionId) {
      let found: OutboxRow | undefined;
      for (const row of sorted()) if (row.questionId === questionId) found = row;
      return found;
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    onDiscarded(listener) {
      discardListeners.add(listener);
      return () => discardListeners.delete(listener);
    },

    async confirmFromHistory(messages) {
      await loaded;
      let count = 0;
      for (const row of sorted()) {
        if (row.state === 'sent') continue;
        const match = messages.find((m) => messageConfirmsRow(row, m));
        if (!match) continue;
        const { after } = await dispatch(row.id, { type: 'confirmedByHistory', messageId: match.id }, { release: true });
        if (after?.state === 'sent') count++;
      }
      return count;
    },

    pump: () => loaded.then(() => schedulePump()),

    dispose() {
      if (disposed) return;
      disposed = true;
      offState();
      offChat?.();
      channel?.removeEventListener('message', onMessage);
      channel?.close?.();
      clearTimeout(wakeTimer);
      clearInterval(renewTimer);
      // Sends still out finish on the gateway or not; their rows keep the lease until it runs out, then go again.
      inFlight.clear();
      listeners.clear();
      discardListeners.clear();
    },
  };
  return outbox;
}
