import { saltedDigestOf, SALT_BYTES, signBuiltReceipt, signerOf, type AuditEntry, type ReceiptPayload } from '../../audit/index.ts';
import { decisionOf } from '../policy/approval-decision.ts';
import type { StoredQuestion } from '../store/types.ts';
import { randomSalt } from '../infra/ids.ts';
import type { AuditRoom } from './audit-room.ts';

const kindOf = (q: StoredQuestion) => (q.approval ? 'approval' : (q.questions[0]?.kind ?? 'question'));

/**
 * L1/L4/L5: the agent is the identity that asks, as the policy's `agents` and a route's `agent` match it (facts.ts); the
 * kind an approval names itself (`claude-code`) is kept beside it, so `audit export --agent` finds every question it asked.
 */
const agentKindOf = (q: StoredQuestion): Record<string, string> => {
  const kind = q.approval?.request.agent;
  return kind !== undefined && kind !== q.askedBy ? { agentKind: kind } : {};
};

/** L1/E5: who allowed a two-person approval before it was decided (the entry's identity is the last one only). */
const approvalsOf = (q: StoredQuestion): Record<string, string> => {
  const approvals = q.route?.quorum?.approvals ?? [];
  return approvals.length ? { approvals: approvals.map((a) => `${a.identity}@${a.surface}`).join(',') } : {};
};

const detailOf = (parts: Record<string, string>) => (Object.keys(parts).length ? { detail: parts } : {});

/** L1, in the question's transaction: it was asked. */
export async function recordAsked(audit: AuditRoom, q: StoredQuestion): Promise<void> {
  await audit.recordUnread({
    atMs: q.createdAtMs,
    event: 'question.asked',
    identity: q.askedBy,
    questionId: q.id,
    ...(q.sessionKey !== undefined ? { sessionKey: q.sessionKey } : {}),
    agentId: q.askedBy,
    kind: kindOf(q),
    // An approval's rules that made it ask (G2: every decision names the rules that matched).
    ...(q.approval?.askedRules.length ? { rules: q.approval.askedRules } : {}),
    ...audit.digests.asked(q),
    ...detailOf(agentKindOf(q)),
  });
}

/**
 * L1/L4, in the transaction that decides the question: the entry (answered, skipped, expired, cancelled; for an approval
 * also who or what decided and the rules), its answers kept apart with the salt of their digest, and the receipt signed
 * over it (none while the log is unsigned, L8).
 */
export async function recordDecided(audit: AuditRoom, q: StoredQuestion, atMs: number): Promise<string | undefined> {
  const decision = decisionOf(q);
  const salt = randomSalt(SALT_BYTES);
  const answersDigest = q.answers ? saltedDigestOf(q.answers, salt) : undefined;
  const byPolicy = decision && (decision.decidedBy === 'policy' || decision.decidedBy === 'grant');
  const event = byPolicy ? (decision.decidedBy === 'grant' ? 'grant.allowed' : decision.behavior === 'allow' ? 'policy.allowed' : 'policy.denied') : (`question.${q.status}` as const);
  const status: ReceiptPayload['status'] = decision ? (decision.behavior === 'allow' ? 'allowed' : 'denied') : (q.status as ReceiptPayload['status']);
  const decidedBy: ReceiptPayload['decidedBy'] = decision?.decidedBy ?? (q.status === 'expired' ? 'timeout' : 'person');
  const who = q.resolvedBy ? { identity: q.resolvedBy.identity, surface: q.resolvedBy.surface } : {};
  const shared = {
    questionId: q.id,
    ...(q.sessionKey !== undefined ? { sessionKey: q.sessionKey } : {}),
    agentId: q.askedBy,
    ...audit.digests.decided(q),
    ...(answersDigest ? { answersDigest } : {}),
    ...(decision?.rules.length ? { rules: decision.rules } : {}),
    ...(decision?.grantId ? { grantId: decision.grantId } : {}),
  };
  const entry = await audit.record(
    { atMs, event: event as AuditEntry['event'], ...who, kind: kindOf(q), status, decidedBy, ...shared, ...detailOf({ ...agentKindOf(q), ...approvalsOf(q), ...(q.reason !== undefined ? { reason: q.reason } : {}) }) },
    q.answers ? { questionId: q.id, salt, answers: q.answers } : undefined,
  );
  const keys = audit.log.keys;
  if (!keys) return undefined;
  const resolvedBy = q.resolvedBy ? { resolvedBy: { identity: q.resolvedBy.identity, surface: q.resolvedBy.surface, atMs: q.resolvedBy.atMs } } : {};
  const payload: ReceiptPayload = { v: 1, iss: audit.log.origin, kind: kindOf(q), askedBy: q.askedBy, status, decidedBy, ...resolvedBy, ...shared, entryIndex: entry.index, iat: Math.floor(atMs / 1000) };
  return signBuiltReceipt(payload, signerOf(keys));
}
