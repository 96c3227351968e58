/**
 * G4/G11: an agent's approval, decided by the gateway. `question.request {approval}` carries no questions: the gateway
 * judges it by its policy and answers at once (`allow`/`deny`, nobody asked), or asks with the approval question it
 * builds (Allow / Deny / Always allow…) and reports a person's `decision` on question.waitAnswer. No surface reads
 * labels back: the decision is the gateway's.
 */
import type { ApprovalDecision, ApprovalRequest } from '../protocol/policy.ts';
import type { RouteState } from '../protocol/routing.ts';
import { clampTimeoutSeconds, type NoAnswerReason } from './ask-user-result.ts';
import type { PromptOptions } from './ask-prompt.ts';
import { visibleNul } from './ask-prompt.ts';
import { abortError, cancelQuestion, askerSurface, inTurn, newQuestionId, raceAbort, SDK_SOURCE, sendQuestion, waitForEnd } from './sdk-ask.ts';
import type { Agent } from './sdk.ts';

/** `approvers` (E8): who allowed it, by display name: a quorum's people, else the person who answered. */
export type ApprovalOutcome = { decision: ApprovalDecision; approvers?: string[] } | { decision: null; reason: NoAnswerReason };

/** E8: the people a person's Allow came from: every approval of a quorum, then whoever completed it; none for a rule. */
function approversOf(d: ApprovalDecision, route: RouteState | undefined): string[] {
  if (d.behavior !== 'allow' || d.decidedBy !== 'person') return [];
  const names = (route?.quorum?.approvals ?? []).map((a) => a.name ?? a.identity);
  if (d.resolvedBy) names.push(d.resolvedBy.name ?? d.resolvedBy.identity);
  return [...new Set(names)];
}

/** What the agent is told when a person or a rule denies without a message of its own. */
export function denyMessage(d: ApprovalDecision): string {
  if (d.message) return d.message;
  const rules = d.rules.length ? ` (rule ${d.rules.join(', ')})` : '';
  if (d.decidedBy === 'person') return 'The person denied this in askdock.';
  if (d.decidedBy === 'timeout') return 'Nobody allowed this in askdock in time.';
  return `askdock's approval policy denied this${rules}.`;
}

/** What a log line says about a decision made at once: `allowed by rule npm-tests`, `denied by grant g-1`. */
export function decidedBy(d: ApprovalDecision): string {
  const verb = d.behavior === 'allow' ? 'allowed' : 'denied';
  if (d.decidedBy === 'grant') return `${verb} by grant${d.grantId ? ` ${d.grantId}` : ''}`;
  if (d.decidedBy === 'policy') return `${verb} by ${d.rules.length ? `rule ${d.rules.join(', ')}` : 'the policy'}`;
  return `${verb} by ${d.resolvedBy?.name ?? d.resolvedBy?.identity ?? d.decidedBy}`;
}

/**
 * Asks the gateway to decide `approval`; waits for a person when the policy says ask. An aborted signal withdraws the
 * question and rejects with an AbortError. Skipped, expired or cancelled: no decision (nothing is allowed by default).
 */
export async function requestApproval(agent: Agent, approval: ApprovalRequest, opts: PromptOptions = {}): Promise<ApprovalOutcome> {
  const { signal } = opts;
  if (signal?.aborted) throw abortError(signal);
  const id = newQuestionId();
  const params = {
    id,
    mode: 'blocking' as const,
    approval: visibleNul(approval),
    timeoutMs: clampTimeoutSeconds(opts.timeoutSeconds) * 1000,
    ...(opts.sessionKey ? { sessionKey: opts.sessionKey } : {}),
    // E1: what asks (hook:claude-code, sdk, mcp-proxy:<server>), for routes to match.
    source: opts.askSource ?? SDK_SOURCE,
  };
  const cancel = async (err: unknown) => {
    if (!signal?.aborted) return err;
    await cancelQuestion(agent.client, id, 'aborted', undefined, askerSurface(opts.askSource));
    return abortError(signal);
  };
  let asked;
  try {
    // G11: an approval carries no questions; the gateway makes its own.
    asked = await raceAbort(inTurn(agent.client, id, () => sendQuestion(agent.client, params as never), { waitTurn: true, signal }), signal);
  } catch (err) {
    throw await cancel(err);
  }
  if (asked.status === 'answered' && asked.decision) {
    if (asked.receipt !== undefined) opts.onReceipt?.(id, asked.receipt);
    return { decision: asked.decision };
  }
  opts.onAsked?.(id);
  let end;
  try {
    end = await waitForEnd(agent.client, id, signal);
  } catch (err) {
    throw await cancel(err);
  }
  if (end.receipt !== undefined) opts.onReceipt?.(id, end.receipt);
  if (end.status === 'answered') {
    // An approval answered without the gateway's decision is no decision: nothing is allowed by default.
    if (!end.decision) return { decision: null, reason: 'cancelled' };
    const approvers = approversOf(end.decision, end.route);
    return { decision: end.decision, ...(approvers.length ? { approvers } : {}) };
  }
  return { decision: null, reason: end.status as NoAnswerReason };
}

/** Several approvals that must all be allowed (a patch touching several files): the first denial decides. */
export async function requestAll(agent: Agent, approvals: readonly ApprovalRequest[], opts: PromptOptions = {}): Promise<ApprovalOutcome> {
  let last: ApprovalOutcome | undefined;
  const approvers = new Set<string>();
  for (const approval of approvals) {
    last = await requestApproval(agent, approval, opts);
    if (!last.decision || last.decision.behavior === 'deny') return last;
    for (const name of last.approvers ?? []) approvers.add(name);
  }
  if (!last?.decision) return last ?? { decision: null, reason: 'cancelled' };
  return { decision: last.decision, ...(approvers.size ? { approvers: [...approvers] } : {}) };
}
