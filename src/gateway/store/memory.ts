import type { ChatMessage, Session } from '../../protocol/index.ts';
import { copyJson, missingRow, shapeMessage, shapeRun, shapeSessionRow } from './shape.ts';
import { byCreated, byExpiry, byHistoryOrder, byNewestActivity, byStarted, createUndoJournal, type Entry } from './memory-journal.ts';
import { asyncStore } from './async-store.ts';
import { searchEntries } from './search.ts';
import { latestPrivilegedInMemory } from './latest-privileged.ts';
import { memoryAuditMethods } from './memory-audit.ts';
import { memorySecretMethods } from './memory-secrets.ts';
import { memoryPushMethods } from './memory-push.ts';
import { memoryGrantMethods } from './memory-grants.ts';
import type { IdempotentResult, RunRow, SessionRow, Store, StoredEvent, StoredQuestion, SyncStore } from './types.ts';
import { memoryRouteIndex } from './memory-routing.ts';

/**
 * The Store in process memory, for tests and throwaway gateways: same results as the SQLite store, nothing kept on close.
 * Rollback replays an undo journal, so a nested transaction that throws undoes only its own writes, like a savepoint.
 */
export function createMemoryStore(): Store {
  const sessions = new Map<string, Entry<SessionRow>>();
  const messages = new Map<string, Entry<ChatMessage>>();
  const idempotency = new Map<string, IdempotentResult>();
  const sessionKeys = new Map<string, string>();
  const questions = new Map<string, Entry<StoredQuestion>>();
  const runs = new Map<string, Entry<RunRow>>();
  const meta = new Map<string, string>();
  let events: StoredEvent[] = [];
  let latestSeq = 0;
  const journal = createUndoJournal();
  const { open, undoable, put, insert, replace } = journal;
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
      insert(sessions, 'session', row.key, shapeSessionRow(row));
      if (idemKey !== undefined) put(sessionKeys, idemKey, row.key);
    },
    sessionByIdempotencyKey(identity, key) {
      open();
      const sessionKey = sessionKeys.get(idempotencyKey(identity, key));
      const entry = sessionKey === undefined ? undefined : sessions.get(sessionKey);
      return entry ? toSession(entry.value, pendingBySession()) : undefined;
    },
    renameSession(key, title) {
      open();
      const entry = sessions.get(key);
      if (!entry) throw missingRow('session', key);
      replace(sessions, 'session', key, { ...entry.value, title });
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
      open();
      const entry = sessions.get(key);
      if (!entry) throw missingRow('session', key);
      // Never moves back, so a late write with an older clock cannot reorder the session list.
      const last = Math.max(entry.value.lastMessageAtMs ?? atMs, atMs);
      replace(sessions, 'session', key, { ...entry.value, lastMessageAtMs: last });
    },
    latestPrivilegedReplies(filter) {
      open();
      return latestPrivilegedInMemory(messages.values(), questions, filter);
    },

    insertMessage(msg) {
      open();
      insert(messages, 'message', msg.id, shapeMessage(msg));
    },
    updateMessageText(id, text) {
      open();
      const entry = messages.get(id);
      if (!entry) throw missingRow('message', id);
      replace(messages, 'message', id, { ...entry.value, text });
    },
    getMessage(id) {
      open();
      const entry = messages.get(id);
      return entry ? shapeMessage(entry.value) : undefined;
    },
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
    getQuestion(id) {
      open();
      const entry = questions.get(id);
      return entry ? copyJson(entry.value) : undefined;
    },
    updateQuestion(q) {
      open();
      if (questions.has(q.id)) routes.note(q);
      replace(questions, 'question', q.id, copyJson(q));
    },
    listQuestions(filter) {
      open();
      return [...questions.values()]
        .filter((e) => filter.sessionKey === undefined || e.value.sessionKey === filter.sessionKey)
        .filter((e) => filter.status === undefined || e.value.status === filter.status)
        .sort(byCreated)
        .map((e) => copyJson(e.value));
    },
    countPendingAskedBy(askedBy) {
      open();
      let n = 0;
      for (const { value: q } of questions.values()) if (q.askedBy === askedBy && q.status === 'pending' && q.retiredAtMs == null) n++;
      return n;
    },
    dueQuestions(nowMs) {
      open();
      return [...questions.values()]
        .filter((e) => e.value.status === 'pending' && e.value.expiresAtMs != null && e.value.expiresAtMs <= nowMs)
        .sort(byExpiry)
        .map((e) => copyJson(e.value));
    },
    nextExpiryMs() {
      open();
      let next: number | null = null;
      for (const { value: q } of questions.values()) {
        if (q.status === 'pending' && q.expiresAtMs != null && (next === null || q.expiresAtMs < next)) next = q.expiresAtMs;
      }
      return next;
    },

    insertRun(run) {
      open();
      insert(runs, 'run', run.runId, shapeRun(run));
    },
    getRun(runId) {
      open();
      const entry = runs.get(runId);
      return entry ? shapeRun(entry.value) : undefined;
    },
    updateRun(run) {
      open();
      replace(runs, 'run', run.runId, shapeRun(run));
    },
    activeRuns(sessionKey) {
      open();
      return [...runs.values()]
        .filter((e) => e.value.endedAtMs === undefined && (sessionKey === undefined || e.value.sessionKey === sessionKey))
        .sort(byStarted)
        .map((e) => shapeRun(e.value));
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
