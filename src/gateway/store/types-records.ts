import type { ApprovalDecision, ApprovalRequest, EventName, Phase, PolicyGrant, QuestionRecord, Scope, Session, StopReason } from '../../protocol/index.ts';

// What the Store keeps of events, sessions, questions, runs and idempotent sends (types.ts gathers every part).

/** Who may see an event (A3/A4), stored beside it so resume (R2) can filter without re-reading records. */
export type EventAudience = {
  /** The session the event belongs to; null for sessionless. */
  sessionKey: string | null;
  /**
   * Present for question events: the question's own visibility inputs; on question.requested, `approval` when it
   * answers a request's approval (G11), which its public record does not say when the agent brought its own items.
   */
  question?: { askedBy: string; privileged: boolean; approval?: true };
  /** Only this identity sees it (e.g. agent-directed events); undefined means the usual rules. */
  onlyIdentity?: string;
  /**
   * A3/A4: on top of the usual session rules, only those who may see this question see the event: the reply to a
   * privileged question, a session count that changed with a question.
   */
  questionViewersOnly?: { askedBy: string; privileged: boolean };
  /**
   * A session.updated event's session's pending, unretired questions as the change left them (who asked, whether
   * privileged): each viewer's own count follows from it, so a fan-out or replay need not read them. Absent: read.
   */
  pending?: { askedBy: string; privileged?: true }[];
  /** Only identities holding this scope see it (G12: the policy's events go to operator.admin alone). */
  onlyScope?: Scope;
};

export type StoredEvent = {
  seq: number;
  event: EventName;
  payload: unknown;
  audience: EventAudience;
  atMs: number;
};

/** A session row as stored; `pendingQuestions` is counted by the store when read. */
export type SessionRow = Omit<Session, 'pendingQuestions'>;

/** A question as stored: the public record plus what only the gateway needs. */
export type StoredQuestion = QuestionRecord & {
  /** The resolutionId of the resolve that ended it, for idempotent repeats (Q5). */
  resolutionId?: string;
  /** The asking client's `connect.client.id`: its reconnect keeps a blocking question alive (Q7). */
  askerClientId?: string;
  /** G11: the approval this question asks for, and how the gateway reads its answers. */
  approval?: StoredApproval;
};

/** G7: an "Always allow…" option the gateway offered: answering it allows and makes a grant of `rule` in `scope`. */
export type ApprovalOffer = { label: string; scope: PolicyGrant['scope']; rule: string };

/** G11/G7: an approval as kept with its question record (never on the wire as such). */
export type StoredApproval = {
  request: ApprovalRequest;
  /** G7: a person's Allow applies to this exact request (tool, input, folder). */
  digest: string;
  /** The rules that made it ask (G11 `rules` on a person's decision). */
  askedRules: string[];
  offers: ApprovalOffer[];
  /** Set once decided (by the policy, a grant, a person or the clock). */
  decision?: ApprovalDecision;
};

export type RunRow = {
  runId: string;
  sessionKey: string | null;
  agentId: string;
  recovery: boolean;
  startedAtMs: number;
  endedAtMs?: number;
  stopReason?: StopReason;
  /** Phase of the run's last final message, or the one given at run.end (Q10). */
  phase?: Phase;
  /** The user message that started it, when known (Q10 without runId). */
  triggerMessageId?: string;
  /** RU1: set for a subagent run; such a run may not ask. */
  parentRunId?: string;
  /** RU2: when an unrelated user message arrived after this run's blocking question; its chat.inject is refused from then on. */
  supersededAtMs?: number;
  /** C4: the message this run's deltas stream into, until its `final`; stored, so a stream goes on after a restart (R3). */
  streamingMessageId?: string;
};

export type SessionIdempotency = { identity: string; key: string };

export type IdempotentResult = { messageId: string; seq: number };
