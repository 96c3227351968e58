import { AskdockError, invalidRequest, type ApprovalDecision, type ApprovalRequest, type Params, type QuestionItem, type Result } from '../../protocol/index.ts';
import { APPROVAL_ALLOW, APPROVAL_DENY } from '../../answers/kinds/approval.ts';
import { approvalDigest, decide, describeRequest, offeredRule, type ApprovalFacts, type GrantRule, type Verdict } from '../../policy/index.ts';
import type { Authenticator, Identity } from '../auth.ts';
import { newId } from '../infra/ids.ts';
import type { Messages } from '../sessions/messages.ts';
import type { RoomParts } from '../sessions/room-parts.ts';
import type { OrderStamps } from '../runs/order-stamps.ts';
import { askSession, requireMayAsk } from '../runs/run-authority.ts';
import type { QuestionManager } from '../questions/questions.ts';
import type { StoredApproval, StoredQuestion } from '../store/types.ts';
import { storedItems } from '../questions/question-records.ts';
import { approvalItems, approvalOffers, APPROVAL_ITEM_ID } from './approval-question.ts';
import { decisionOf } from './approval-decision.ts';
import { grantApplies, type GrantPlace } from './grants.ts';
import { factsOf, grantAgent } from './facts.ts';

export { factsOf, grantAgent };
import type { PolicySource } from './policy-source.ts';
import type { AuditRoom } from '../audit/audit-room.ts';
import { recordDecided } from '../audit/question-entries.ts';

const where = 'question.request';
/** Who a decision the policy or a grant made is resolved by (Q1 `resolvedBy`, surface `policy`). */
export const POLICY_IDENTITY = 'policy';

/** What the approval desk is built with. */
export type ApprovalParts = RoomParts & {
  source: PolicySource;
  questions: Pick<QuestionManager, 'request'>;
  messages: Pick<Messages, 'appendMessage'>;
  stamps: Pick<OrderStamps, 'questionCreated'>;
  /** L1/L4: the policy's decisions are entries of the audit log, with a receipt. */
  audit: AuditRoom;
  /** E5: who may still make a grant a quorum's approvals chose, by their scopes in the running config. */
  auth: Pick<Authenticator, 'identityById'>;
};

/** G6: the one line a session gets for an allowed or denied request. */
export function noticeText(facts: ApprovalFacts, decision: ApprovalDecision): string {
  const what = `${decision.behavior === 'allow' ? '✓ Allowed' : '✕ Denied'} ${describeRequest(facts)}`;
  if (decision.grantId !== undefined) return `${what} · grant ${decision.grantId}`;
  return decision.rules.length > 0 ? `${what} · rule ${decision.rules.join(', ')}` : `${what} · no rule matched`;
}

/** G11: the decision the policy (or a grant) made, as the wire tells it. */
function verdictDecision(verdict: Verdict): ApprovalDecision {
  const behavior = verdict.decision === 'allow' ? 'allow' : 'deny';
  const rules = verdict.matchedRules.filter((r) => r.decision === verdict.decision).map((r) => r.id);
  return {
    behavior,
    decidedBy: verdict.decidedBy === 'grant' ? 'grant' : 'policy',
    rules,
    ...(verdict.reason !== undefined && behavior === 'deny' ? { message: verdict.reason } : {}),
    ...(verdict.decidedBy === 'grant' && verdict.grantId !== undefined ? { grantId: verdict.grantId } : {}),
  };
}

/**
 * G11/G12: a request's `tool` is a tool's name as G1 names it; a rule's form ("Bash(git push)") would match no rule and
 * be asked about (or answer ask) under a name no rule or grant can ever reach; a glob (mcp__github__*) names no one tool.
 */
export function requireToolName(method: 'policy.check' | 'question.request', path: string, tool: string): void {
  if (/[()\s*]/u.test(tool))
    throw invalidRequest(method, [{ path, problem: `"${tool}" is not a tool's name (a rule's form or glob): give the name (Bash, Edit, mcp__github__create_issue) and the request in input, e.g. {tool: "Bash", input: {command: "git push origin main"}}` }]);
}

/** G11: question.request with an approval: decided by the policy and the grants in reach, asked only when it says ask. */
export class ApprovalDesk {
  constructor(private readonly parts: ApprovalParts) {}

  /** G5: the live, unrevoked grants that reach a request made here. */
  async grantsFor(place: GrantPlace): Promise<GrantRule[]> {
    const live = await this.parts.store.listGrants(this.parts.clock.now());
    return live.filter((g) => grantApplies(g, place)).map((g) => ({ id: g.id, rule: g.rule }));
  }

  async request(identity: Identity, clientId: string, p: Params<'question.request'> & { approval: ApprovalRequest }): Promise<Result<'question.request'>> {
    requireMayAsk(identity, where);
    requireToolName('question.request', 'approval.tool', p.approval.tool);
    const facts = factsOf(p.approval, identity.id);
    const digest = approvalDigest(facts);
    if (p.id !== undefined) {
      const existing = await this.parts.store.getQuestion(p.id);
      if (existing) return replayed(identity, existing, digest);
    }
    const sessionKey = await askSession(this.parts, identity, where, p);
    const place: GrantPlace = { ...(sessionKey !== undefined ? { sessionKey } : {}), ...(facts.cwd !== undefined ? { project: facts.cwd } : {}), agent: grantAgent(facts) };
    const verdict = await decide(this.parts.source.current.policy, facts, await this.grantsFor(place));
    // G7: offers belong to a question a person answers; a request the policy decided has none (and skips their cost).
    const offered = verdict.decision === 'ask' ? await offeredRule(facts, p.approval.suggestions) : null;
    const offers = approvalOffers(offered, { session: sessionKey !== undefined, project: facts.cwd !== undefined });
    const items = approvalItems(facts, p.approval, verdict, offers);
    const askedRules = verdict.matchedRules.filter((r) => r.decision === 'ask').map((r) => r.id);
    const approval: StoredApproval = { request: p.approval, digest, askedRules, offers };
    if (verdict.decision === 'ask') return await this.parts.questions.request(identity, clientId, { ...p, questions: p.questions ?? items }, approval);
    const decision = verdictDecision(verdict);
    return await this.decided(identity, p, sessionKey, facts, { ...approval, decision }, items);
  }

  /** G11/G6: stored as answered by the rule (no person ever sees it pending), and the session told in one line. */
  private async decided(
    identity: Identity,
    p: Params<'question.request'>,
    sessionKey: string | undefined,
    facts: ApprovalFacts,
    approval: StoredApproval & { decision: ApprovalDecision },
    items: QuestionItem[],
  ): Promise<Result<'question.request'>> {
    const { store, hub, messages, stamps } = this.parts;
    const decision = approval.decision;
    const id = p.id ?? newId('q');
    let receipt: string | undefined;
    await hub.commit(async (tx) => {
      const now = stamps.questionCreated();
      const record: StoredQuestion = {
        id,
        ...(sessionKey !== undefined ? { sessionKey } : {}),
        ...(p.runId !== undefined ? { runId: p.runId } : {}),
        askedBy: identity.id,
        mode: p.mode ?? 'blocking',
        ...(p.privileged ? { privileged: true } : {}),
        questions: storedItems(items),
        createdAtMs: now,
        expiresAtMs: null,
        status: 'answered',
        answers: { [APPROVAL_ITEM_ID]: [decision.behavior === 'allow' ? APPROVAL_ALLOW : APPROVAL_DENY] },
        resolvedBy: { identity: POLICY_IDENTITY, surface: 'policy', atMs: now },
        approval,
      };
      receipt = await recordDecided(this.parts.audit, record, now);
      if (receipt !== undefined) record.receipt = receipt;
      await store.insertQuestion(record, undefined, p.id === undefined);
      // A3: the notice of a privileged approval tells its decision, so it is privileged as a reply to that question is.
      const privileged = p.privileged ? { replyTo: { questionId: id }, privilegedReplyOf: identity.id } : {};
      if (sessionKey !== undefined) await messages.appendMessage(tx, { sessionKey, role: 'system', text: noticeText(facts, decision), authorId: POLICY_IDENTITY, state: 'final', ...privileged });
    }, sessionKey);
    return { id, expiresAtMs: null, status: 'answered', decision, ...(receipt !== undefined ? { receipt } : {}) };
  }
}

/** Q2/G11: the same asker sending the same approval with the same id gets the first result, with its decision. */
function replayed(identity: Identity, existing: StoredQuestion, digest: string): Result<'question.request'> {
  if (existing.askedBy !== identity.id || existing.approval?.digest !== digest)
    throw new AskdockError('QUESTION_ID_IN_USE', `question id "${existing.id}" is already used: leave id out or pick another`, { details: { id: existing.id } });
  const decision = decisionOf(existing);
  const settled = existing.status === 'answered' && decision !== undefined;
  return { id: existing.id, expiresAtMs: existing.expiresAtMs, ...(settled ? { status: 'answered' as const, decision, ...(existing.receipt !== undefined ? { receipt: existing.receipt } : {}) } : {}) };
}
