import type { ChatMessage, EventName, MessageRole, Phase, QuestionRecord, Session, StopReason } from '../../protocol/index.ts';
import { shapeMessage, shapeRun, toJson } from './shape.ts';
import type { EventAudience, RunRow, SessionRow, StoredEvent, StoredQuestion } from './types.ts';

/*
 * The SQL stores' rows (SQLite and PostgreSQL share the column names) and their mapping to and from the Store's types,
 * written once: a column added here shows in both.
 */

export type SessionDbRow = {
  key: string;
  title: string;
  created_by: string;
  agent_id: string | null;
  created_at_ms: number;
  last_message_at_ms: number | null;
  /** A COUNT: PostgreSQL hands it over as a string. */
  pending: number | string;
};
export type MessageDbRow = {
  id: string;
  session_key: string;
  seq: number;
  role: MessageRole;
  text: string;
  author_id: string;
  run_id: string | null;
  reply_to: string | null;
  created_at_ms: number;
};
export type RunDbRow = {
  run_id: string;
  session_key: string | null;
  agent_id: string;
  /** SQLite keeps booleans as 0/1. */
  recovery: number | boolean;
  started_at_ms: number;
  ended_at_ms: number | null;
  stop_reason: StopReason | null;
  phase: Phase | null;
  trigger_message_id: string | null;
  parent_run_id: string | null;
  superseded_at_ms: number | null;
  streaming_message_id: string | null;
};
export type EventDbRow = { seq: number; event: EventName; payload: string; audience: string; at_ms: number };

/** A questions row still open: pending and not retired. Counted in its session's badge (C1) and the asker's limit (S5). */
export const OPEN_QUESTION = `status = 'pending' AND retired_at_ms IS NULL`;

export const SESSION_COLUMNS = `s.key, s.title, s.created_by, s.agent_id, s.created_at_ms, s.last_message_at_ms,
  (SELECT COUNT(*) FROM questions q WHERE q.session_key = s.key AND ${OPEN_QUESTION}) AS pending`;

/** The stored row of a session as read (its count left out). */
export function sessionRowOf({ pendingQuestions: _count, ...row }: Session): SessionRow {
  return row;
}

/** Read on every session.updated: one object, in shapeSessionRow's key order, then the count. */
export function toSession(r: SessionDbRow): Session {
  return {
    key: r.key,
    title: r.title,
    createdBy: r.created_by,
    agentId: r.agent_id ?? null,
    createdAtMs: r.created_at_ms,
    lastMessageAtMs: r.last_message_at_ms ?? null,
    pendingQuestions: Number(r.pending),
  };
}

export function toMessage(r: MessageDbRow): ChatMessage {
  return shapeMessage({
    id: r.id,
    sessionKey: r.session_key,
    role: r.role,
    text: r.text,
    authorId: r.author_id,
    runId: r.run_id,
    replyTo: r.reply_to === null ? null : JSON.parse(r.reply_to),
    createdAtMs: r.created_at_ms,
    seq: r.seq,
  });
}

export function toRun(r: RunDbRow): RunRow {
  return shapeRun({
    runId: r.run_id,
    sessionKey: r.session_key,
    agentId: r.agent_id,
    recovery: r.recovery === true || r.recovery === 1,
    startedAtMs: r.started_at_ms,
    endedAtMs: r.ended_at_ms,
    stopReason: r.stop_reason,
    phase: r.phase,
    triggerMessageId: r.trigger_message_id,
    parentRunId: r.parent_run_id,
    supersededAtMs: r.superseded_at_ms,
    streamingMessageId: r.streaming_message_id,
  });
}

export function toEvent(r: EventDbRow): StoredEvent {
  return { seq: r.seq, event: r.event, payload: JSON.parse(r.payload), audience: JSON.parse(r.audience) as EventAudience, atMs: r.at_ms };
}

export const toQuestion = (r: { record: string }) => JSON.parse(r.record) as StoredQuestion;

/**
 * A question's columns as positional parameters, in table order (id, session_key, status, expires_at_ms, created_at_ms,
 * retired_at_ms, record, asked_by): binding by position costs SQLite a fraction of binding eight names.
 */
export type QuestionColumnsAfterId = [string | null, string, number | null, number, number | null, string, string];
export type QuestionColumns = [string, ...QuestionColumnsAfterId];

export function questionColumns(q: StoredQuestion, recordJson?: string): QuestionColumns {
  return [q.id, q.sessionKey ?? null, q.status, q.expiresAtMs ?? null, q.createdAtMs, q.retiredAtMs ?? null, recordJson ?? toJson(q), q.askedBy];
}

/**
 * The stored record's JSON made from its public record's JSON (which a question.requested event carries), so a new
 * question is serialised once: the fields only the gateway keeps (resolutionId, askerClientId) are appended.
 */
export function storedRecordJson(q: StoredQuestion, publicJson: string): string {
  let own = '';
  for (const field of GATEWAY_ONLY_FIELDS) if (q[field] !== undefined) own += `,"${field}":${JSON.stringify(q[field])}`;
  return own === '' ? publicJson : `${publicJson.slice(0, -1)}${own}}`;
}

type GatewayOnlyField = Exclude<keyof StoredQuestion, keyof QuestionRecord>;
/** Every field of StoredQuestion beyond QuestionRecord: one more there fails to compile here until storedRecordJson writes it too. */
const GATEWAY_ONLY_FIELDS = Object.keys({ resolutionId: 0, askerClientId: 0, approval: 0 } satisfies Record<GatewayOnlyField, 0>) as GatewayOnlyField[];

/** A run's columns, in table order; `recovery` as a boolean (SQLite wants it as 0/1). */
export function runColumns(run: RunRow) {
  return {
    runId: run.runId,
    sessionKey: run.sessionKey ?? null,
    agentId: run.agentId,
    recovery: run.recovery,
    startedAtMs: run.startedAtMs,
    endedAtMs: run.endedAtMs ?? null,
    stopReason: run.stopReason ?? null,
    phase: run.phase ?? null,
    triggerMessageId: run.triggerMessageId ?? null,
    parentRunId: run.parentRunId ?? null,
    supersededAtMs: run.supersededAtMs ?? null,
    streamingMessageId: run.streamingMessageId ?? null,
  };
}
