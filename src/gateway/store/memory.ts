import type { ChatMessage, Session } from '../../protocol/index.ts';
import { copyJson, shapeMessage, shapeRun, shapeSessionRow } from './shape.ts';
import { byCreated, byExpiry, byHistoryOrder, byNewestActivity, byStarted, createUndoJournal } from './memory-journal.ts';
import { asyncStore } from './async-store.ts';
import { searchEntries } from './search.ts';
import { latestPrivilegedInMemory } from './latest-privileged.ts';
import { memoryPendingTallies } from './pending-tally.ts';
import { memoryAuditMethods } from './memory-audit.ts';
import { memorySecretMethods } from './memory-secrets.ts';
import { memoryPushMethods } from './memory-push.ts';
import { memoryGrantMethods } from './memory-grants.ts';
import type { IdempotentResult, RunRow, SessionRow, Store, StoredEvent, StoredQuestion, SyncStore } from './types.ts';
import { memoryRouteIndex } from './memory-routing.ts';
import { memoryTable } from './memory-table.ts';

/**
 * The Store in process memory, for tests and throwaway gateways: same results as the SQLite store, nothing kept on close.
 * Rollback replays an undo journal, so a nested transaction that throws undoes only its own writes, like a savepoint.
 */
export function createMemoryStore(): Store {
  const journal = createUndoJournal();
  const { open, undoable, put, insert } = journal;
  const sessionTable = memoryTable<SessionRow>(journal, 'session', (s) => s.key, shapeSessionRow);
  const messageTable = memoryTable<ChatMessage>(journal, 'message', (m) => m.id, shapeMessage);
  const questionTable = memoryTable<StoredQuestion>(journal, 'question', (q) => q.id, copyJson);
  const runs = memoryTable<RunRow>(journal, 'run', (r) => r.runId, shapeRun);
  const { rows: sessions } = sessionTable;
  const { rows: messages } = messageTable;
  const { rows: questions } = questionTable;
  const idempotency = new Map<string, IdempotentResult>();
  const sessionKeys = new Map<string, string>();
  const meta = new Map<string, string>();
  let events: StoredEvent[] = [];
  let latestSeq = 0;
  const routes = memoryRouteIndex(questions, undoable);
  const idempotencyKey = (identity: string, key: string) => JSON.stringify([identity, key]);

  function pendingBySession(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { value: q } of questions.values()) {
      if (q.sessionKey === undefined || q.status !== 'pending' || q.retiredAtMs != null) continue;
      counts.set(q.sessionKey, (counts.get(q.sessionKey) ?? 0) + 1);
    }
    return counts;
  }
  function toSession(row: SessionRow, counts: Map<string, number>): Session {
    return { ...shapeSessionRow(row), pendingQuestions: counts.get(row.key) ?? 0 };
  }
  /** Index of the first event with seq > cursor (events are kept sorted by seq). */
  function firstAfter(cursor: number): number {
    let lo = 0;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (events[mid].seq <= cursor) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  const store: SyncStore = {
    transaction: journal.transaction,
    openUnit: journal.openUnit,
    beginGroup: journal.beginGroup,
    commitGroup: journal.commitGroup,
    rollbackGroup: journal.rollbackGroup,

    appendEvent(e, payloadJson) {
      open();
      const payload = payloadJson !== undefined ? JSON.parse(payloadJson) : copyJson(e.payload);
      const stored: StoredEvent = { seq: latestSeq + 1, event: e.event, payload, audience: copyJson(e.audience), atMs: e.atMs };
      const before = latestSeq;
      events.push(stored);
      latestSeq = stored.seq;
      undoable(() => {
        events.pop();
        latestSeq = before;
      });
      return stored.seq;
    },
    eventsAfter(cursor, limit) {
      open();
      const from = firstAfter(cursor);
      return events.slice(from, from + Math.max(0, Math.trunc(limit))).map(copyJson);
    },
    oldestEventSeq() {
      open();
      if (events.length) return events[0].seq;
      // Everything pruned: the next seq is the oldest that can still come, so no pruned cursor looks resumable.
      return latestSeq === 0 ? 0 : latestSeq + 1;
    },
    latestSeq() {
      open();
      return latestSeq;
    },
    pruneEvents(beforeMs, keepAtLeast) {
      open();
      const keep = Math.max(0, Math.trunc(keepAtLeast));
      let count = Math.max(0, events.length - keep);
      // Drop only a prefix, so the kept events have no holes even if clocks stepped back.
      const firstRecent = events.findIndex((e) => e.atMs >= beforeMs);
      if (firstRecent >= 0) count = Math.min(count, firstRecent);
      if (count === 0) return 0;
      const dropped = events.slice(0, count);
      events = events.slice(count);
      undoable(() => {
        events = dropped.concat(events);
      });
      return count;
    },

    createSession(row, idem) {
      open();
      const idemKey = idem ? idempotencyKey(idem.identity, idem.key) : undefined;
      if (idemKey !== undefined && sessionKeys.has(idemKey)) throw new Error(`store: session idempotency key "${idem!.key}" already used`);
      sessionTable.insert(row);
      if (idemKey !== undefined) put(sessionKeys, idemKey, row.key);
    },
    sessionByIdempotencyKey(identity, key) {
      open();
      const sessionKey = sessionKeys.get(idempotencyKey(identity, key));
      const entry = sessionKey === undefined ? undefined : sessions.get(sessionKey);
      return entry ? toSession(entry.value, pendingBySession()) : undefined;
    },
    renameSession(key, title) {
      sessionTable.patch(key, (row) => ({ ...row, title }));
    },
    getSession(key) {
      open();
      const entry = sessions.get(key);
      return entry ? toSession(entry.value, pendingBySession()) : undefined;
    },
    listSessions() {
      open();
      const counts = pendingBySession();
      return [...sessions.values()].sort(byNewestActivity).map((e) => toSession(e.value, counts));
    },
    touchSession(key, atMs) {
      // Never moves back, so a late write with an older clock cannot reorder the session list.
      sessionTable.patch(key, (row) => ({ ...row, lastMessageAtMs: Math.max(row.lastMessageAtMs ?? atMs, atMs) }));
    },
    latestPrivilegedReplies(filter) {
      open();
      return latestPrivilegedInMemory(messages.values(), questions, filter);
    },

    insertMessage: messageTable.insert,
    updateMessageText(id, text) {
      messageTable.patch(id, (msg) => ({ ...msg, text }));
    },
    getMessage: messageTable.get,
    history(sessionKey, limit, before) {
      open();
      const take = Math.max(0, Math.trunc(limit));
      const all = [...messages.values()].filter((e) => e.value.sessionKey === sessionKey).sort(byHistoryOrder);
      let end = all.length;
      if (before !== undefined) {
        end = all.findIndex((e) => e.value.id === before);
        // A cursor from another session or an unknown id pages nothing rather than restarting from the newest.
        if (end < 0) return { messages: [], hasMore: false };
      }
      const start = Math.max(0, end - take);
      return { messages: all.slice(start, end).map((e) => shapeMessage(e.value)), hasMore: start > 0 };
    },
    getIdempotent(identity, key) {
      open();
      const result = idempotency.get(idempotencyKey(identity, key));
      return result ? { ...result } : undefined;
    },
    putIdempotent(identity, key, result) {
      open();
      const k = idempotencyKey(identity, key);
      // The first result wins (C2): a repeat must never overwrite what the first send answered.
      if (!idempotency.has(k)) put(idempotency, k, { messageId: result.messageId, seq: result.seq });
    },

    insertQuestion(q, recordJson) {
      open();
      if (!questions.has(q.id)) routes.note(q);
      insert(questions, 'question', q.id, recordJson === undefined ? copyJson(q) : (JSON.parse(recordJson) as StoredQuestion));
    },
    getQuestion: questionTable.get,
    updateQuestion(q) {
      open();
      if (questions.has(q.id)) routes.note(q);
      questionTable.replace(q);
    },
    listQuestions(filter) {
      const kept = (q: StoredQuestion) =>
        (filter.sessionKey === undefined || q.sessionKey === filter.sessionKey) && (filter.status === undefined || q.status === filter.status);
      return questionTable.list(kept, byCreated);
    },
    pendingTallies(sessionKey) {
      open();
      return memoryPendingTallies(questions.values(), sessionKey);
    },
    countPendingAskedBy(askedBy) {
      open();
      let n = 0;
      for (const { value: q } of questions.values()) if (q.askedBy === askedBy && q.status === 'pending' && q.retiredAtMs == null) n++;
      return n;
    },
    dueQuestions(nowMs) {
      return questionTable.list((q) => q.status === 'pending' && q.expiresAtMs != null && q.expiresAtMs <= nowMs, byExpiry);
    },
    nextExpiryMs() {
      open();
      let next: number | null = null;
      for (const { value: q } of questions.values()) {
        if (q.status === 'pending' && q.expiresAtMs != null && (next === null || q.expiresAtMs < next)) next = q.expiresAtMs;
      }
      return next;
    },

    insertRun: runs.insert,
    getRun: runs.get,
    updateRun: runs.replace,
    activeRuns(sessionKey) {
      return runs.list((run) => run.endedAtMs === undefined && (sessionKey === undefined || run.sessionKey === sessionKey), byStarted);
    },

    search(scope) {
      open();
      return searchEntries(scope, { sessions: sessions.values(), messages: messages.values(), questions: questions.values() });
    },
    ...memorySecretMethods(journal),
    ...memoryPushMethods(journal),
    ...memoryGrantMethods(journal),
    ...memoryAuditMethods(journal),
    ...routes.methods,

    getMeta(key) {
      open();
      return meta.get(key);
    },
    setMeta(key, value) {
      open();
      put(meta, key, value);
    },

    close: journal.close,
  };
  return asyncStore(store);
}
