import { z } from 'zod';
import { AgentPresence, ChatMessage, ChatState, Phase, ReplyTo, Session, StopReason } from './session.ts';
import { MESSAGE_MAX, SESSION_TITLE_MAX } from './rules.ts';
import { Answers, QuestionList, QuestionMode, QuestionRecord, QuestionStatus, Surface } from './question.ts';
import { Role, Scope } from './scopes.ts';
import { SearchParams, SearchResponse } from './search.ts';
import { PushSubscriptionId, PushSubscriptionInfo, PushSubscriptionInput, PushUnsubscribeParams } from './push.ts';
import {
  QuestionAckParams, QuestionHandoffParams, QuestionSource, QuorumState, ResolvedByView, RouteResult, RouteState, RoutingStatusResult, RoutingTestParams, RoutingTestResult,
} from './routing.ts';
import { ApprovalDecision, ApprovalRequest, GrantRequest, PolicyCheckParams, PolicyCheckResult, PolicyGetResult } from './policy.ts';
import { AuditAcknowledgeParams, AuditAcknowledgeResult, AuditCheckpointParams, AuditCheckpointResult, AuditExportParams, AuditExportResult, AuditProofParams, AuditProofResult, Receipt } from './audit.ts';
import { SecretName, SecretProvideParams, SecretRequestParams, SecretRequestRecord, SecretStatus, SecretWaitResult } from './secret.ts';

const Key = z.string().min(1).max(128);
const IdempotencyKey = z
  .string({ error: 'idempotencyKey must be a string' })
  .min(8, { error: 'idempotencyKey must be 8..128 characters' })
  .max(128, { error: 'idempotencyKey must be 8..128 characters' });
/** Q2: a question id an agent chooses. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const QuestionId = z.string().regex(REQUEST_ID_PATTERN, {
  error: 'id must be 1..128 letters, digits, "_", ".", ":" or "-"',
});

export const ClientMode = z.enum(['ui', 'tui', 'cli', 'agent', 'mcp']);
export type ClientMode = z.infer<typeof ClientMode>;

export const ConnectParams = z.object({
  minProtocol: z.number().int().positive(),
  maxProtocol: z.number().int().positive(),
  client: z.object({
    id: z.string().min(1).max(128),
    name: z.string().max(128),
    version: z.string().max(64),
    platform: z.string().max(64),
    mode: ClientMode,
  }),
  auth: z.object({ token: z.string() }),
  resume: z.object({ cursor: z.number().int().nonnegative() }).optional(),
});
export type ConnectParams = z.infer<typeof ConnectParams>;

export const HelloOk = z.object({
  type: z.literal('hello-ok'),
  protocol: z.number().int(),
  /** `publicUrl`: the address people reach the Control UI at, when the gateway was given one; links are made on it. */
  server: z.object({ version: z.string(), connId: z.string(), publicUrl: z.string().optional() }),
  features: z.object({ methods: z.array(z.string()), events: z.array(z.string()) }),
  auth: z.object({ identity: z.string(), role: Role, scopes: z.array(Scope) }),
  policy: z.object({ maxPayload: z.number().int(), tickIntervalMs: z.number().int() }),
  snapshot: z.object({
    cursor: z.number().int(),
    sessions: z.array(Session),
    pendingQuestions: z.array(QuestionRecord),
    /** K1: pending secret requests this identity may see, so a reloaded UI shows them again. */
    pendingSecrets: z.array(SecretRequestRecord).optional(),
    /** Set when the snapshot was cut to fit `policy.maxPayload`: fetch the rest with `sessions.list` / `question.list`. */
    hasMore: z.boolean().optional(),
  }),
  resumed: z.boolean(),
});
export type HelloOk = z.infer<typeof HelloOk>;

const Empty = z.object({}).optional().transform(() => ({}));

export const ResolveParams = z.union([
  z.object({
    id: Key,
    answers: Answers,
    resolutionId: z.string().min(1).max(128).optional(),
    surface: Surface.optional(),
    /** G12: an "Always allow…" answer to an approval asks for a grant, made in the same transaction. */
    grant: GrantRequest.optional(),
  }),
  z.object({ id: Key, skip: z.literal(true), resolutionId: z.string().min(1).max(128).optional(), surface: Surface.optional() }),
  z.object({ id: Key, cancel: z.literal(true), reason: z.string().max(200).optional() }),
]);
export type ResolveParams = z.infer<typeof ResolveParams>;

export const QuestionRequestParams = z.object({
  id: QuestionId.optional(),
  sessionKey: Key.optional(),
  runId: Key.optional(),
  mode: QuestionMode.optional(),
  privileged: z.boolean().optional(),
  /** Required unless `approval` is given: then the gateway makes the approval's question (G11). */
  questions: QuestionList.optional(),
  timeoutMs: z.number({ error: 'timeoutMs must be a number' }).finite().optional(),
  /** G11: an approval the gateway decides by its policy before anyone is asked. */
  approval: ApprovalRequest.optional(),
  /** E1: what asks (`hook:claude-code`, `mcp-proxy:<server>`, `sdk`, `mcp`, `cli`), for a route's `match.source`. */
  source: QuestionSource.optional(),
}).superRefine((p, ctx) => {
  if (p.questions === undefined && p.approval === undefined)
    ctx.addIssue({ code: 'custom', path: ['questions'], message: 'questions are required (unless approval is given)', input: p });
});
export type QuestionRequestParams = z.infer<typeof QuestionRequestParams>;
export type QuestionRequestInput = z.input<typeof QuestionRequestParams>;

const WaitResult = z.object({
  status: QuestionStatus,
  answers: Answers.optional(),
  reason: z.string().optional(),
  resolutionId: z.string().optional(),
  /** G11: how an approval was decided. */
  decision: ApprovalDecision.optional(),
  /** E8: who answered (with their display name), the approvals of a quorum and the escalation trail. */
  resolvedBy: ResolvedByView.optional(),
  route: RouteState.optional(),
  /** L4/L9: the signed receipt of the decision (absent while open, and when the log is unsigned, L8). */
  receipt: Receipt.optional(),
});

/**
 * The method table: params, result and the scopes any one of which allows the call (A5); which methods a client may
 * send again after a reconnect (P7) is in rules.ts (`RESENDABLE_METHODS`).
 * `connect` is listed for its shapes; the gateway handles it before dispatch.
 */
export const methods = {
  connect: { params: ConnectParams, result: HelloOk, scopes: [] as Scope[] },
  'sessions.create': {
    params: z.object({
      title: z.string().max(SESSION_TITLE_MAX, { error: `title must be at most ${SESSION_TITLE_MAX} characters` }).optional(),
      agentId: z.string().min(1).max(128).optional(),
      idempotencyKey: IdempotencyKey.optional(),
    }),
    result: z.object({ session: Session }),
    scopes: ['operator.admin', 'operator.write', 'operator.sessions.write', 'agent.run'] as Scope[],
  },
  'sessions.update': {
    params: z.object({
      sessionKey: Key,
      title: z
        .string({ error: 'title must be a string' })
        .trim()
        .min(1, { error: 'title must not be blank' })
        .max(SESSION_TITLE_MAX, { error: `title must be at most ${SESSION_TITLE_MAX} characters` }),
    }),
    result: z.object({ session: Session }),
    scopes: ['operator.admin', 'operator.write', 'operator.sessions.write', 'agent.run'] as Scope[],
  },
  'sessions.list': {
    params: Empty,
    result: z.object({ sessions: z.array(Session) }),
    scopes: ['operator.admin', 'operator.read', 'operator.write', 'operator.sessions.write', 'agent.run'] as Scope[],
  },
  'chat.send': {
    params: z.object({
      sessionKey: Key,
      message: z
        .string({ error: 'message must be a string' })
        .min(1, { error: 'message must not be empty' })
        .max(MESSAGE_MAX, { error: `message must be at most ${MESSAGE_MAX} characters` }),
      idempotencyKey: IdempotencyKey,
      replyTo: ReplyTo.optional(),
    }),
    result: z.object({ messageId: z.string(), seq: z.number().int(), deduped: z.boolean() }),
    scopes: ['operator.admin', 'operator.write', 'operator.sessions.write'] as Scope[],
  },
  'chat.history': {
    params: z.object({
      sessionKey: Key,
      limit: z.number().int().min(1).max(500).optional(),
      before: z.string().optional(),
    }),
    result: z.object({ messages: z.array(ChatMessage), hasMore: z.boolean() }),
    scopes: ['operator.admin', 'operator.read', 'operator.write', 'operator.sessions.write', 'agent.run'] as Scope[],
  },
  'chat.abort': {
    params: z.object({ sessionKey: Key, runId: Key.optional() }),
    result: z.object({ aborted: z.array(z.string()) }),
    scopes: ['operator.admin', 'operator.write', 'operator.sessions.write'] as Scope[],
  },
  'run.start': {
    params: z.object({ sessionKey: Key.optional(), recovery: z.boolean().optional(), parentRunId: Key.optional() }),
    result: z.object({ runId: z.string() }),
    scopes: ['agent.run'] as Scope[],
  },
  'chat.inject': {
    params: z.object({
      runId: Key,
      text: z.string().max(MESSAGE_MAX),
      state: ChatState,
      phase: Phase.optional(),
    }),
    result: z.object({ messageId: z.string() }),
    scopes: ['agent.run'] as Scope[],
  },
  'run.end': {
    params: z.object({ runId: Key, stopReason: StopReason, phase: Phase.optional() }),
    result: z.object({ ended: z.boolean() }),
    scopes: ['agent.run'] as Scope[],
  },
  'agent.subscribe': {
    params: z.object({ sessionKey: Key.optional() }),
    result: z.object({ subscribed: z.boolean() }),
    scopes: ['agent.run'] as Scope[],
  },
  'question.request': {
    params: QuestionRequestParams,
    // G11: a policy decision answers at once with `status` and `decision` (and its receipt, L4).
    result: z.object({ id: z.string(), expiresAtMs: z.number().nullable(), status: z.literal('answered').optional(), decision: ApprovalDecision.optional(), receipt: Receipt.optional() }),
    scopes: ['agent.run'] as Scope[],
  },
  'question.waitAnswer': {
    params: z.object({
      id: Key,
      timeoutMs: z.number().int().nonnegative().optional(),
      includeResolutionId: z.boolean().optional(),
    }),
    result: WaitResult,
    scopes: ['agent.run'] as Scope[],
  },
  'question.resolve': {
    params: ResolveParams,
    // E5: an Allow that leaves a quorum short answers `{status: "pending", quorum}`.
    result: z.object({ status: QuestionStatus, answers: Answers.optional(), quorum: QuorumState.optional() }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'agent.run'] as Scope[],
  },
  /** E4: "I'm on it": pauses the escalation (an eligible identity). */
  'question.ack': { params: QuestionAckParams, result: RouteResult, scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[] },
  /** E6: passes the question to a person or a group, with a note and the drafts so far. */
  'question.handoff': { params: QuestionHandoffParams, result: RouteResult, scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[] },
  'question.get': {
    params: z.object({ id: Key }),
    result: z.object({ question: QuestionRecord }),
    // A3: operator.read and operator.write may ask and see none (A4: an empty list, QUESTION_NOT_FOUND).
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'operator.read', 'operator.write', 'agent.run'] as Scope[],
  },
  'question.list': {
    params: z.object({ sessionKey: Key.optional(), status: QuestionStatus.optional() }),
    result: z.object({ questions: z.array(QuestionRecord) }),
    // A3: operator.read and operator.write may ask and see none (A4: an empty list, QUESTION_NOT_FOUND).
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'operator.read', 'operator.write', 'agent.run'] as Scope[],
  },
  search: {
    params: SearchParams,
    result: SearchResponse,
    // U19: every reader searches what it may read; the results are filtered by A3/A6 like every other read.
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'operator.read', 'operator.write', 'agent.run'] as Scope[],
  },
  'secret.request': {
    params: SecretRequestParams,
    result: z.object({ id: z.string(), expiresAtMs: z.number() }),
    scopes: ['agent.run'] as Scope[],
  },
  'secret.provide': {
    params: SecretProvideParams,
    result: z.object({ status: SecretStatus, name: z.string() }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[],
  },
  'secret.waitResult': {
    params: z.object({ id: Key, timeoutMs: z.number().int().nonnegative().optional() }),
    result: SecretWaitResult,
    scopes: ['agent.run'] as Scope[],
  },
  'secret.cancel': {
    params: z.object({ id: Key, reason: z.string().max(200).optional() }),
    result: z.object({ status: SecretStatus, name: z.string() }),
    scopes: ['agent.run'] as Scope[],
  },
  'secret.get': {
    params: z.object({ name: SecretName }),
    result: z.object({ value: z.string() }),
    scopes: ['agent.secrets'] as Scope[],
  },
  /** U18 "Connect an agent": each agent identity with its token (null when the config keeps only its hash), admins only. */
  'agents.connectInfo': {
    params: Empty,
    result: z.object({
      agents: z.array(
        z.object({
          id: z.string(),
          token: z.string().nullable(),
          presence: AgentPresence,
          /** The demo agent of `askdock start` is connected as this identity. */
          demo: z.boolean(),
        }),
      ),
    }),
    scopes: ['operator.admin'] as Scope[],
  },
  'secret.list': {
    params: z.object({ status: SecretStatus.optional() }).optional().transform((p) => p ?? {}),
    result: z.object({ requests: z.array(SecretRequestRecord) }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'agent.run'] as Scope[],
  },
  // U17: Web Push for the identity's own browsers; those who may answer questions (A3) subscribe.
  'push.config': {
    params: Empty,
    /** The VAPID application server key (base64url) a browser subscribes with. */
    result: z.object({ publicKey: z.string() }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[],
  },
  'push.subscribe': {
    params: z.object({ subscription: PushSubscriptionInput }),
    /** `id`: what `push.list` shows this subscription as and `push.unsubscribe {id}` removes. */
    result: z.object({ subscribed: z.boolean(), id: PushSubscriptionId }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[],
  },
  /** The caller's own subscriptions (its devices), oldest first: ids and push services, never endpoints or keys. */
  'push.list': {
    params: Empty,
    result: z.object({ subscriptions: z.array(PushSubscriptionInfo) }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[],
  },
  /** By `endpoint` (the browser turning push off: false when none of the caller's) or by `id` (PUSH_SUBSCRIPTION_NOT_FOUND). */
  'push.unsubscribe': {
    params: PushUnsubscribeParams,
    result: z.object({ unsubscribed: z.boolean() }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[],
  },
  /** G12: the policy in force, its grants, and why the last reload failed (admins only). */
  'policy.get': { params: Empty, result: PolicyGetResult, scopes: ['operator.admin'] as Scope[] },
  /** G9/G12: what the policy decides for a request; an agent checks for itself. */
  'policy.check': { params: PolicyCheckParams, result: PolicyCheckResult, scopes: ['operator.admin', 'agent.run'] as Scope[] },
  /** G12: an admin or the grant's maker ends a grant. */
  'policy.grant.revoke': {
    params: z.object({ id: Key }),
    result: z.object({ revoked: z.boolean() }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[],
  },
  /** E12: each schedule's person now and next, and the routed questions the caller may see. */
  'routing.status': {
    params: Empty,
    result: RoutingStatusResult,
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'operator.read', 'operator.write'] as Scope[],
  },
  /** E12: the route a described question would take and each step's people, without asking anyone. */
  'routing.test': { params: RoutingTestParams, result: RoutingTestResult, scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'operator.read', 'operator.write'] as Scope[] },
  /** L3/L9: the newest signed checkpoint; `sign:true` (admins) signs one now. */
  'audit.checkpoint': { params: AuditCheckpointParams, result: AuditCheckpointResult, scopes: ['operator.admin'] as Scope[] },
  /** L9: an entry's inclusion proof. */
  'audit.proof': { params: AuditProofParams, result: AuditProofResult, scopes: ['operator.admin'] as Scope[] },
  /** L5/L9: the export's files, a page at a time (admins only). */
  'audit.export': { params: AuditExportParams, result: AuditExportResult, scopes: ['operator.admin'] as Scope[] },
  /** L7: an admin acknowledges a failed self-check, so checkpoints are signed again. */
  'audit.acknowledge': { params: AuditAcknowledgeParams, result: AuditAcknowledgeResult, scopes: ['operator.admin'] as Scope[] },
} as const;

export type Methods = typeof methods;
export type MethodName = Exclude<keyof Methods, 'connect'>;
export const METHOD_NAMES = Object.keys(methods).filter((m) => m !== 'connect') as MethodName[];
export type ParamsInput<M extends MethodName> = z.input<Methods[M]['params']>;
export type Params<M extends MethodName> = z.output<Methods[M]['params']>;
export type Result<M extends MethodName> = z.output<Methods[M]['result']>;

export function isMethodName(name: string): name is MethodName {
  return name !== 'connect' && Object.hasOwn(methods, name);
}
