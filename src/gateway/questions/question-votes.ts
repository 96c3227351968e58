import type { Answers, GrantRequest, QuorumState, ResolvedBy } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { Tx } from '../hub/hub.ts';
import type { StoredQuestion } from '../store/types.ts';
import type { ApprovalAnswers, RoutingHooks } from './question-hooks.ts';

/** An answer inside its transaction: held short of a quorum (E5), else the question as it ends (its approval's decision, G11). */
export type Vote = { pending: QuorumState } | { pending?: undefined; q: StoredQuestion };

/**
 * Where every answer meets (question.resolve, a chat reply, a channel's press through either): the grant it asks for is
 * checked first (G5/A5: who may make it, then, past eligibility, where it binds and its rule), so a vote naming an offer
 * is refused or accepted the same whether it would be held (E5) or complete the quorum. A held vote keeps its grant;
 * when the quorum completes, the policy room makes a grant only if every approval chose it (quorumGrant).
 * `ownDone`: the asker closing its own link question Done (X5), which no route's eligibility holds back.
 */
export async function voteIn(
  rooms: { routing: RoutingHooks | null; approvals: ApprovalAnswers | null },
  tx: Tx,
  identity: Identity,
  q: StoredQuestion,
  answers: Answers,
  grant: GrantRequest | undefined,
  resolvedBy: ResolvedBy,
  ownDone = false,
): Promise<Vote> {
  rooms.approvals?.requireGrantMaker(identity, q, answers, grant);
  // X5: the asker closing its own link Done (own-link.ts) is no person's answer: whom a route waits for does not apply.
  if (!ownDone) rooms.routing?.requireEligible(identity, q);
  const chosen = rooms.approvals?.grantChosen(identity, q, answers, grant);
  const routed = ownDone ? undefined : await rooms.routing?.checkAnswerIn(tx, identity, q, answers, resolvedBy.surface, chosen);
  if (routed?.pending) return { pending: routed.pending };
  const asked = routed?.q ?? q;
  const approval = await rooms.approvals?.answeredIn(tx, identity, asked, answers, chosen, resolvedBy);
  return { q: approval ? { ...asked, approval } : asked };
}
