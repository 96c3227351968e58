/** What the rooms built beside the question lifecycle add to it: the policy room's answers and the routing room's hooks. */
import type { Answers, ChosenGrant, GrantRequest, Params, QuorumState, ResolvedBy } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { Tx } from '../hub/hub.ts';
import type { StoredApproval, StoredQuestion } from '../store/types.ts';

/** G5/G11: what an answer to an approval adds inside its transaction (the policy room): its decision and any grant. */
export type ApprovalAnswers = {
  answeredIn(tx: Tx, identity: Identity, q: StoredQuestion, answers: Answers, grant: ChosenGrant | undefined, resolvedBy: ResolvedBy): Promise<StoredApproval> | undefined;
  /** G5/A5: refuses, before anything is written, a grant the answer asks for that the identity may not make. */
  requireGrantMaker(identity: Identity, q: StoredQuestion, answers: Answers, grant: GrantRequest | undefined): void;
  /** G5/G7: the grant the answer asks for, checked in full (scope, binding, rule) before it is held (E5) or made. */
  grantChosen(identity: Identity, q: StoredQuestion, answers: Answers, grant: GrantRequest | undefined): ChosenGrant | undefined;
};

/** E2-E5: what routing adds to asking and answering (the routing room). */
export type RoutingHooks = {
  routeNew(identity: Identity, record: StoredQuestion, p: Params<'question.request'>): Promise<StoredQuestion>;
  noted(q: Pick<StoredQuestion, 'route'>): void;
  checkAnswerIn(tx: Tx, identity: Identity, q: StoredQuestion, answers: Answers | undefined, surface: string, grant?: ChosenGrant): Promise<{ pending?: QuorumState; q: StoredQuestion } | undefined>;
  requireEligible(identity: Identity, q: StoredQuestion): void;
};
