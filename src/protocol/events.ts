import * as z from 'zod';
import { AgentPresence, ChatMessage, ChatState, Session, StopReason } from './session.ts';
import { Answers, QuestionRecord, QuestionStatus, ResolvedBy } from './question.ts';
import { RouteState } from './routing.ts';
import { AuditIntegrity, Receipt } from './audit.ts';
import { SecretOutcome, SecretRequestRecord } from './secret.ts';
import { lazyTable } from './lazy-table.ts';

/** Every event the gateway sends, by name (C5, Q8, Q10, P4, P6); X1: each schema built when first read (lazy-table.ts). */
export const events = lazyTable({
  'connect.challenge': () => z.object({ nonce: z.string(), ts: z.number() }),
  tick: () => z.object({ ts: z.number() }),
  chat: () => z.object({ sessionKey: z.string(), runId: z.string().optional(), message: ChatMessage, state: ChatState }),
  'session.updated': () => z.object({ session: Session }),
  /** U18: a session's agent connected, left, or a run opened or ended in it; live only (no seq): the snapshot carries the current state. */
  'session.presence': () => z.object({ sessionKey: z.string(), agentPresence: AgentPresence }),
  'run.started': () => z.object({ runId: z.string(), sessionKey: z.string().nullable(), recovery: z.boolean() }),
  'run.ended': () => z.object({ runId: z.string(), sessionKey: z.string().nullable(), stopReason: StopReason }),
  'question.requested': () => z.object({ question: QuestionRecord }),
  'question.resolved': () => z.object({
    id: z.string(),
    sessionKey: z.string().optional(),
    status: QuestionStatus,
    answers: Answers.optional(),
    resolvedBy: ResolvedBy.optional(),
    reason: z.string().optional(),
    replyMessageId: z.string().optional(),
    /** L4/L9: the decision's signed receipt. */
    receipt: Receipt.optional(),
  }),
  'question.retired': () => z.object({ id: z.string(), sessionKey: z.string().optional(), retiredAtMs: z.number().optional() }),
  /** K1: a secret request, never its value. */
  'secret.requested': () => z.object({ request: SecretRequestRecord }),
  /** K1/E7: `resolvedBy`, who provided or skipped it and where (never the value), as a question's. */
  'secret.resolved': () => z.object({ id: z.string(), sessionKey: z.string().optional(), name: z.string(), status: SecretOutcome, resolvedBy: ResolvedBy.optional() }),
  /** E1/E11 for K1: a routed secret request's route changed (a step ran); `notify`: who it reached just now. Never a value. */
  'secret.routed': () => z.object({ id: z.string(), sessionKey: z.string().optional(), route: RouteState, notify: z.array(z.string()).optional() }),
  /** G12: the policy was (re)loaded, or a reload failed and the previous one stays (admins only). */
  'policy.updated': () => z.object({ loadedAtMs: z.number(), error: z.string().optional() }),
  /** G12: a grant was made, revoked or ended (admins only). */
  'policy.grants.updated': () => z.object({}),
  /**
   * E11: a routed question's route changed (a step ran, someone acknowledged, handed off or approved); `notify`: who it
   * reached just now; `acked`: this change is an acknowledgement (E4), said once ("Ana is on it") on channels and pushes.
   */
  'question.routed': () =>
    z.object({ id: z.string(), sessionKey: z.string().optional(), route: RouteState, notify: z.array(z.string()).optional(), acked: z.literal(true).optional() }),
  /** L7/L8: the audit log's self-check (admins only): `ok:false` until an admin acknowledges. */
  'audit.integrity': () => AuditIntegrity,
});

export type Events = typeof events;

/** Events that carry no `seq`: never stored or replayed (R1 stores state changes; these say what is live now). */
export const LIVE_EVENTS: ReadonlySet<string> = new Set(['connect.challenge', 'tick', 'session.presence']);
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.infer<Events[E]>;
export const EVENT_NAMES = Object.keys(events) as EventName[];

/** A parsed event: a discriminated union over names, so `switch (e.event)` narrows the payload. */
export type AnyEvent = { [E in EventName]: { event: E; payload: EventPayload<E>; seq?: number } }[EventName];

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(events, name);
}
