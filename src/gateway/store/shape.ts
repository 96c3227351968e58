import type { ChatMessage } from '../../protocol/index.ts';
import type { RunRow, SessionRow } from './types.ts';

/** Optional fields that may also arrive as null (from a SQL column) and are dropped when absent. */
type Loose<T, K extends keyof T> = Omit<T, K> & { [P in K]?: T[P] | null };

export function toJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** A deep copy through JSON, so the memory store hands out exactly what SQLite would give back. */
export function copyJson<T>(value: T): T {
  return JSON.parse(toJson(value)) as T;
}

export function shapeMessage(m: Loose<ChatMessage, 'runId' | 'replyTo'>): ChatMessage {
  const out: ChatMessage = {
    id: m.id,
    sessionKey: m.sessionKey,
    role: m.role,
    text: m.text,
    authorId: m.authorId,
    createdAtMs: m.createdAtMs,
    seq: m.seq,
  };
  if (m.runId != null) out.runId = m.runId;
  if (m.replyTo != null) out.replyTo = copyJson(m.replyTo);
  return out;
}

export function shapeSessionRow(s: Loose<SessionRow, 'lastMessageAtMs' | 'agentId'>): SessionRow {
  return {
    key: s.key,
    title: s.title,
    createdBy: s.createdBy,
    agentId: s.agentId ?? null,
    createdAtMs: s.createdAtMs,
    lastMessageAtMs: s.lastMessageAtMs ?? null,
  };
}

export function shapeRun(
  r: Loose<RunRow, 'sessionKey' | 'endedAtMs' | 'stopReason' | 'phase' | 'triggerMessageId' | 'parentRunId' | 'supersededAtMs' | 'streamingMessageId'>,
): RunRow {
  const out: RunRow = {
    runId: r.runId,
    sessionKey: r.sessionKey ?? null,
    agentId: r.agentId,
    recovery: Boolean(r.recovery),
    startedAtMs: r.startedAtMs,
  };
  if (r.endedAtMs != null) out.endedAtMs = r.endedAtMs;
  if (r.stopReason != null) out.stopReason = r.stopReason;
  if (r.phase != null) out.phase = r.phase;
  if (r.triggerMessageId != null) out.triggerMessageId = r.triggerMessageId;
  if (r.parentRunId != null) out.parentRunId = r.parentRunId;
  if (r.supersededAtMs != null) out.supersededAtMs = r.supersededAtMs;
  if (r.streamingMessageId != null) out.streamingMessageId = r.streamingMessageId;
  return out;
}

/** Errors for writes that name a row which does not exist: a caller bug, never a user error. */
export function missingRow(kind: string, id: string): Error {
  return new Error(`store: no ${kind} "${id}" to update; insert it first`);
}
