import type { GatewayClient } from '../../../client/client.ts';
import { newId as randomId } from '../../../lib/ids.ts';
import { Listeners } from '../../../lib/listeners.ts';
import { AskdockError } from '../../../protocol/askdock-error.ts';
import type { Answers, ChatMessage } from '../../../protocol/index.ts';
import { createBroadcast, type ChannelLike } from './broadcast.ts';
import { createCommitter } from './commit.ts';
import { DEFAULT_LEASE_MS, released } from './lease.ts';
import { transition, type OutboxRow } from './machine.ts';
import { createPump } from './pump.ts';
import { messageConfirmsRow } from './send-outcome.ts';
import { createSnapshot } from './snapshot.ts';
import type { OutboxStorage } from './storage.ts';

/*
 * The outbox for async answers and chat messages (PRODUCT U9-U11, PROTOCOL C2/Q9), wired from its parts:
 *   storage.ts   the rows in IndexedDB (the truth, shared by every tab), memory as the fallback
 *   machine.ts   one row's delivery states, pure
 *   commit.ts    read-change-write of one row in one transaction, then the snapshot follows
 *   snapshot.ts  this tab's copy of the rows, with stable arrays for rendering
 *   pump.ts      sending: one row at a time per session, while connected, with the row's own idempotency key
 *   lease.ts     which tab sends a row (a claim in the stored row that runs out when its tab goes away)
 *   broadcast.ts telling the other tabs which rows changed
 */

export { OUTBOX_CHANNEL, type ChannelLike } from './broadcast.ts';
export { messageConfirmsRow } from './send-outcome.ts';

/** What the outbox needs from the gateway client; `on('chat')`, when there, confirms rows from live messages. */
export type OutboxClient = Pick<GatewayClient, 'request' | 'onState' | 'state'> & Partial<Pick<GatewayClient, 'on'>>;

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
export type EnqueueMessageInput = { sessionKey: string; text: string };

export interface Outbox {
  readonly tabId: string;
  /** Resolves once stored rows are loaded. */
  ready(): Promise<void>;
  /** Queues an answer; a question that already has a live row gets that row back (never a second answer). */
  enqueue(input: EnqueueInput): Promise<OutboxRow>;
  /** Queues a chat message typed in the composer (U11): stored before it is sent, so neither offline nor a reload loses it. */
  enqueueMessage(input: EnqueueMessageInput): Promise<OutboxRow>;
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

const DEFAULT_KEEP_SENT_MS = 7 * 24 * 3600_000;


/** Rows are persisted first, then sent whenever the client is connected (see the parts above). */
export function createOutbox(options: OutboxOptions): Outbox {
  const { client, storage } = options;
  const now = options.now ?? Date.now;
  const tabId = options.tabId ?? randomId();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const keepSentMs = options.keepSentMs ?? DEFAULT_KEEP_SENT_MS;
  const newId = options.newId ?? randomId;
  const onError = options.onError ?? ((error: unknown) => console.error('outbox:', error));

  let disposed = false;
  const snapshot = createSnapshot();
  const discardListeners = new Listeners<[OutboxRow]>();
  const emitDiscarded = (row: OutboxRow) => discardListeners.emit(row);

  const broadcast = createBroadcast({
    channel: options.channel ?? null,
    tabId,
    onError,
    onChanged: (ids) => void reload(ids).catch(onError),
    onDiscarded(row) {
      if (disposed) return;
      pump.stop(row.id);
      if (snapshot.drop(row.id)) snapshot.notify();
      emitDiscarded(row);
    },
  });
  const { commit, dispatch } = createCommitter({
    storage,
    snapshot,
    tabId,
    now,
    disposed: () => disposed,
    onWritten: (id) => broadcast.changed(id),
    onRemoved(row) {
      pump.stop(row.id);
      broadcast.discarded(row);
      emitDiscarded(row);
    },
  });
  const pump = createPump({ client, rows: snapshot.all, tabId, leaseMs, now, onError, commit, dispatch });

  /** Another tab wrote these rows: read them from storage. */
  async function reload(ids: readonly string[]) {
    if (disposed) return;
    let dirty = false;
    for (const id of ids) {
      const row = await storage.get(id);
      if (disposed) return;
      dirty = (row ? snapshot.store(row) : snapshot.drop(id)) || dirty;
    }
    if (dirty) snapshot.notify();
    void pump.schedule();
  }

  /** A new queued row, strictly after every known one, so two rows queued in one millisecond keep their order. */
  function freshRow(fields: Pick<OutboxRow, 'kind' | 'sessionKey' | 'questionId' | 'text'>): OutboxRow {
    const at = Math.max(now(), ...snapshot.all().map((r) => r.createdAtMs + 1));
    const { questionId, ...rest } = fields;
    const row: OutboxRow = { id: newId(), idempotencyKey: `outbox-${newId()}`, ...rest, state: 'queued', createdAtMs: at, updatedAtMs: at, attempts: 0 };
    if (questionId !== undefined) row.questionId = questionId;
    return row;
  }

  /** A row just written by this tab: shown here, told to the other tabs, and sent when its turn comes. */
  function stored(row: OutboxRow, replaced?: OutboxRow): OutboxRow {
    snapshot.store(row);
    snapshot.notify();
    broadcast.changed(row.id, ...(replaced ? [replaced.id] : []));
    void pump.schedule();
    return row;
  }

  const offChat = client.on?.('chat', (payload) => {
    if (payload.state === 'final') void outbox.confirmFromHistory([payload.message]).catch(onError);
  });

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
    for (const row of rows) if (!snapshot.has(row.id)) snapshot.store(row);
    snapshot.notify();
    void pump.schedule();
  })();

  const outbox: Outbox = {
    tabId,
    ready: () => loaded,

    async enqueue(input) {
      if (!input.text.trim())
        throw new AskdockError('INVALID_REQUEST', 'an outbox answer needs text: format it with formatAsyncAnswerText first');
      await loaded;
      const fresh = freshRow({ kind: 'answer', sessionKey: input.sessionKey, questionId: input.questionId, text: input.text });
      if (input.answers) fresh.answers = input.answers;
      const at = fresh.createdAtMs;
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
        snapshot.drop(replaced.id);
        pump.stop(replaced.id);
      }
      return stored(row, replaced);
    },

    async enqueueMessage(input) {
      if (!input.text.trim()) throw new AskdockError('INVALID_REQUEST', 'a chat message needs text');
      await loaded;
      // Every message is a row of its own: the same words sent twice are two messages, each with its own key.
      const row = freshRow({ kind: 'message', sessionKey: input.sessionKey, text: input.text });
      await storage.transact(() => ({ put: [row], result: undefined }));
      return disposed ? row : stored(row);
    },

    async retry(id) {
      await loaded;
      const { before, after } = await commit(id, (stored) => {
        const next = transition(stored, { type: 'retryRequested' }, now());
        return next === null || next === stored ? stored : released(next, tabId);
      });
      // A send still out for this row is dropped; the new one carries the same key, so at most one message exists.
      if (after && before && after !== before) pump.stop(id);
      void pump.schedule();
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

    rows: (sessionKey) => (sessionKey === undefined ? snapshot.all() : snapshot.forSession(sessionKey)),
    row: (id) => snapshot.row(id),
    rowForQuestion: (questionId) => snapshot.forQuestion(questionId),
    subscribe: (listener) => snapshot.subscribe(listener),

    onDiscarded: (listener) => discardListeners.add(listener),

    async confirmFromHistory(messages) {
      await loaded;
      let count = 0;
      for (const row of snapshot.all()) {
        if (row.state === 'sent') continue;
        const match = messages.find((m) => messageConfirmsRow(row, m));
        if (!match) continue;
        const { after } = await dispatch(row.id, { type: 'confirmedByHistory', messageId: match.id }, { release: true });
        if (after?.state === 'sent') count++;
      }
      return count;
    },

    pump: () => loaded.then(() => pump.schedule()),

    dispose() {
      if (disposed) return;
      disposed = true;
      offChat?.();
      broadcast.close();
      pump.dispose();
      snapshot.clear();
      discardListeners.clear();
    },
  };
  return outbox;
}
