/** Questions (Q1-Q11) and search (U19): their methods' params, results and scopes. */
import * as z from 'zod';
import { Answers, QuestionList, QuestionMode, QuestionRecord, QuestionStatus, Surface } from './question.ts';
import type { Scope } from './scopes.ts';
import { SearchParams, SearchResponse } from './search.ts';
import { QuestionAckParams, QuestionHandoffParams, QuestionSource, QuorumState, ResolvedByView, RouteResult, RouteState } from './routing.ts';
import { ApprovalDecision, ApprovalRequest, GrantRequest } from './policy.ts';
import { Receipt } from './audit.ts';
import { Key } from './method-parts.ts';

/** Q2: a question id an agent chooses. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const QuestionId = z.string().regex(REQUEST_ID_PATTERN, {
  error: 'id must be 1..128 letters, digits, "_", ".", ":" or "-"',
});

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
  /** Q1: `surface` names what withdrew it (`hook`, `mcp-proxy`); the asker's own `sdk` when absent. */
  z.object({ id: Key, cancel: z.literal(true), reason: z.string().max(200).optional(), surface: Surface.optional() }),
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
  /** E1: the questions ask an MCP server's elicitation (X1 hook, X5 proxy): a route's `match.kind` `elicitation`. */
  elicitation: z.boolean().optional(),
}).superRefine(
  (p, ctx) => {
    if (p.questions === undefined && p.approval === undefined)
      ctx.addIssue({ code: 'custom', path: ['questions'], message: 'questions are required (unless approval is given)', input: p });
  },
  // T3: named beside the other fields' faults, which would otherwise stop zod before this check.
  { when: (payload) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value) },
);
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

export const questionMethods = {
  'question.request': () => ({
    params: QuestionRequestParams,
    // G11: a policy decision answers at once with `status` and `decision` (and its receipt, L4).
    result: z.object({ id: z.string(), expiresAtMs: z.number().nullable(), status: z.literal('answered').optional(), decision: ApprovalDecision.optional(), receipt: Receipt.optional() }),
    scopes: ['agent.run'] as Scope[],
  }),
  'question.waitAnswer': () => ({
    params: z.object({
      id: Key,
      timeoutMs: z.number().int().nonnegative().optional(),
      includeResolutionId: z.boolean().optional(),
    }),
    result: WaitResult,
    scopes: ['agent.run'] as Scope[],
  }),
  'question.resolve': () => ({
    params: ResolveParams,
    // E5: an Allow that leaves a quorum short answers `{status: "pending", quorum}`.
    result: z.object({ status: QuestionStatus, answers: Answers.optional(), quorum: QuorumState.optional() }),
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'agent.run'] as Scope[],
  }),
  /** E4: "I'm on it": pauses the escalation (an eligible identity). */
  'question.ack': () => ({ params: QuestionAckParams, result: RouteResult, scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[] }),
  /** E6: passes the question to a person or a group, with a note and the drafts so far. */
  'question.handoff': () => ({ params: QuestionHandoffParams, result: RouteResult, scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write'] as Scope[] }),
  'question.get': () => ({
    params: z.object({ id: Key }),
    result: z.object({ question: QuestionRecord }),
    // A3: operator.read and operator.write may ask and see none (A4: an empty list, QUESTION_NOT_FOUND).
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'operator.read', 'operator.write', 'agent.run'] as Scope[],
  }),
  'question.list': () => ({
    params: z.object({ sessionKey: Key.optional(), status: QuestionStatus.optional() }),
    result: z.object({ questions: z.array(QuestionRecord) }),
    // A3: operator.read and operator.write may ask and see none (A4: an empty list, QUESTION_NOT_FOUND).
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'operator.read', 'operator.write', 'agent.run'] as Scope[],
  }),
  search: () => ({
    params: SearchParams,
    result: SearchResponse,
    // U19: every reader searches what it may read; the results are filtered by A3/A6 like every other read.
    scopes: ['operator.admin', 'operator.questions', 'operator.sessions.write', 'operator.read', 'operator.write', 'agent.run'] as Scope[],
  }),
};
