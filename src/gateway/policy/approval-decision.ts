import type { Answers, ApprovalDecision, ResolvedBy } from '../../protocol/index.ts';
import { readApproval } from '../../answers/kinds/approval.ts';
import type { StoredApproval, StoredQuestion } from '../store/types.ts';

/** The item an approval's answer is read from: the approval kind's, else the first. */
export function approvalItem(q: Pick<StoredQuestion, 'questions'>): StoredQuestion['questions'][number] {
  return q.questions.find((i) => i.kind === 'approval') ?? q.questions[0];
}

/** G7: which offer (if any) an answer chose. */
export function chosenOffer(approval: StoredApproval, q: Pick<StoredQuestion, 'questions'>, answers: Answers) {
  const value = answers[approvalItem(q).id]?.[0];
  return approval.offers.find((o) => o.label === value);
}

/** G11: whether a person's answer allows (Allow or an offer) rather than denies (Deny, or typed text). */
export function answerAllows(q: Pick<StoredQuestion, 'questions'>, answers: Answers): boolean {
  const item = approvalItem(q);
  return readApproval(item, answers[item.id] ?? []).behavior !== 'deny';
}

/** G11: a person's answer as a decision: Allow or an offer allows, Deny denies, typed text denies with it as the message. */
export function personDecision(approval: StoredApproval, q: Pick<StoredQuestion, 'questions'>, answers: Answers, resolvedBy: ResolvedBy, grantId?: string): ApprovalDecision {
  const item = approvalItem(q);
  const read = readApproval(item, answers[item.id] ?? []);
  const behavior = read.behavior === 'deny' ? 'deny' : 'allow';
  return {
    behavior,
    decidedBy: 'person',
    rules: approval.askedRules,
    ...(read.message !== undefined ? { message: read.message } : {}),
    ...(grantId !== undefined && behavior === 'allow' ? { grantId } : {}),
    resolvedBy,
  };
}

/** G11: how an approval's question was decided, as far as its record tells; undefined while pending or cancelled. */
export function decisionOf(q: StoredQuestion): ApprovalDecision | undefined {
  const approval = q.approval;
  if (!approval) return undefined;
  if (approval.decision) return approval.decision;
  switch (q.status) {
    case 'answered':
      return q.answers && q.resolvedBy ? personDecision(approval, q, q.answers, q.resolvedBy) : undefined;
    case 'expired':
      // G10: nothing is allowed because nobody answered.
      return { behavior: 'deny', decidedBy: 'timeout', rules: approval.askedRules, message: 'nobody answered in time' };
    case 'skipped':
      return { behavior: 'deny', decidedBy: 'person', rules: approval.askedRules, ...(q.resolvedBy ? { resolvedBy: q.resolvedBy } : {}) };
    default:
      return undefined;
  }
}
