import { invalidRequest, type Answers, type ChosenGrant, type GrantRequest, type GrantScope, type QuorumState, type ResolvedBy } from '../../protocol/index.ts';
import type { Authenticator, Identity } from '../auth.ts';
import { forbidden } from '../sessions/visibility.ts';
import { GRANT_MAKERS, mayMakeGrant } from '../../answers/kinds/approval-offers.ts';
import type { Tx } from '../hub/hub.ts';
import { newId } from '../infra/ids.ts';
import type { RoomParts } from '../sessions/room-parts.ts';
import type { EventAudience, StoredApproval, StoredGrant, StoredQuestion } from '../store/types.ts';
import { answerAllows, chosenOffer, personDecision } from './approval-decision.ts';
import { grantBinding, grantExpiry } from './grants.ts';
import type { AuditRoom } from '../audit/audit-room.ts';
import { recordGrant } from '../audit/grant-entries.ts';
import { factsOf, grantAgent } from './facts.ts';

const where = 'question.resolve';
/** G12: the policy's events go to operator.admin alone. */
export const ADMINS: EventAudience = { sessionKey: null, onlyScope: 'operator.admin' };

const GRANT_NAMES: Record<GrantScope, string> = { session: 'this session', project: 'this project', agent: 'this agent', everyone: 'everyone' };

/** A5: refused before anything is written, naming the scopes that would allow it. */
function requireGrantMaker(identity: Identity, scope: GrantScope): void {
  if (!mayMakeGrant(identity.scopes, scope)) throw forbidden(`a grant for ${GRANT_NAMES[scope]}`, GRANT_MAKERS[scope] ?? [], identity);
}

/**
 * G5/A5, before an answer does anything (E5: before a vote short of a quorum is held too): refuses a grant it asks for
 * (`grant:{scope}`, or an offer's label with an Allow) that the identity may not make.
 */
export function requireGrantAllowed(identity: Identity, q: StoredQuestion & { approval: StoredApproval }, answers: Answers, asked: GrantRequest | undefined): void {
  const scope = asked?.scope ?? chosenOffer(q.approval, q, answers)?.scope;
  if (scope !== undefined && answerAllows(q, answers)) requireGrantMaker(identity, scope);
}

/** What a grant of `scope` binds to for this approval (its session, folder or agent), or why none can be made here. */
function bindingFor(q: StoredQuestion & { approval: StoredApproval }, scope: GrantScope) {
  const place = { ...(q.sessionKey !== undefined ? { sessionKey: q.sessionKey } : {}), ...(q.approval.request.cwd !== undefined ? { project: q.approval.request.cwd } : {}), agent: grantAgent(factsOf(q.approval.request, q.askedBy)) };
  const binding = grantBinding(scope, place);
  if (typeof binding === 'string') throw invalidRequest(where, [{ path: 'grant.scope', problem: `no ${scope} grant here: ${binding}` }]);
  return binding;
}

/**
 * G5/G7/A5: the grant an answer asks for (`grant:{scope, rule?}`, or an offer's label with an Allow), checked as it
 * would be made: who may make it, where it binds, the rule it keeps. E5: a vote short of a quorum is checked here as
 * a completing one is, and the grant is held with it.
 */
export function chooseGrant(identity: Identity, q: StoredQuestion & { approval: StoredApproval }, answers: Answers, asked: GrantRequest | undefined): ChosenGrant | undefined {
  const offer = chosenOffer(q.approval, q, answers);
  const scope = asked?.scope ?? offer?.scope;
  if (scope === undefined || !answerAllows(q, answers)) {
    if (asked) throw invalidRequest(where, [{ path: 'grant', problem: 'only an Allow makes a grant' }]);
    return undefined;
  }
  requireGrantMaker(identity, scope);
  bindingFor(q, scope);
  return { scope, rule: grantRule(q.approval, asked, offer?.rule) };
}

/**
 * E5: the grant a completed quorum makes, and who made it: the least permissive reading of its approvals. A grant is
 * made only when every approval chose it (the same scope and rule); one person's "Always allow…" beside another's plain
 * Allow, or two different grants, make none, and the approval is a plain Allow. A held choice was checked when it was
 * given; the config may have changed since, so each chooser must still hold a scope that makes it (`scopesOf`: their
 * scopes in the running config, undefined once the identity is gone from it) or no grant is made. Made by the first.
 */
export function quorumGrant(approvals: QuorumState['approvals'], scopesOf: (identity: string) => ReadonlySet<string> | undefined): { grant: ChosenGrant; by: string } | undefined {
  const first = approvals[0]?.grant;
  if (!first) return undefined;
  const agreed = approvals.every((a) => a.grant?.scope === first.scope && a.grant.rule === first.rule);
  if (!agreed) return undefined;
  const mayStill = approvals.every((a) => {
    const scopes = scopesOf(a.identity);
    return scopes !== undefined && mayMakeGrant(scopes, first.scope);
  });
  return mayStill ? { grant: first, by: approvals[0].identity } : undefined;
}

/**
 * G7: the rule a grant keeps is one the approval offered (the agent's suggestion or askdock's own): `grant.rule` may
 * pick among them, never name another (an answer to `git push` must not grant `Bash(*)`).
 */
function grantRule(approval: StoredApproval, asked: GrantRequest | undefined, offered: string | undefined): string {
  const rules = [...new Set(approval.offers.map((o) => o.rule))];
  if (asked?.rule !== undefined) {
    if (rules.includes(asked.rule)) return asked.rule;
    const problem = rules.length === 0 ? 'no rule is offered for this request: answer Allow' : `not a rule offered for this request; offered: ${rules.join(', ')}`;
    throw invalidRequest(where, [{ path: 'grant.rule', problem }]);
  }
  const rule = offered ?? rules[0];
  if (rule === undefined) throw invalidRequest(where, [{ path: 'grant', problem: 'no rule can be formed for this request: answer Allow' }]);
  return rule;
}

/**
 * G5/G12, inside the transaction of a person's answer to an approval: the decision it carries, and the grant it chose
 * (checked by chooseGrant) or, for a completed quorum (E5), the one every approval chose (quorumGrant), made in the same
 * transaction.
 */
export async function answerApprovalIn(
  parts: Pick<RoomParts, 'store' | 'clock'> & { audit: AuditRoom; auth: Pick<Authenticator, 'identityById'> },
  tx: Tx,
  identity: Identity,
  q: StoredQuestion & { approval: StoredApproval },
  answers: Answers,
  chosen: ChosenGrant | undefined,
  resolvedBy: ResolvedBy,
): Promise<StoredApproval> {
  const { approval } = q;
  const quorum = q.route?.quorum;
  const made = quorum ? quorumGrant(quorum.approvals, (id) => parts.auth.identityById(id)?.scopes) : chosen && { grant: chosen, by: identity.id };
  if (!made || !answerAllows(q, answers)) return { ...approval, decision: personDecision(approval, q, answers, resolvedBy) };
  const now = parts.clock.now();
  const grant: StoredGrant = {
    id: newId('gr'),
    rule: made.grant.rule,
    scope: made.grant.scope,
    expiresAt: grantExpiry(made.grant.scope, now),
    grantedBy: made.by,
    questionId: q.id,
    ...bindingFor(q, made.grant.scope),
    createdAtMs: now,
  };
  await parts.store.insertGrant(grant);
  await recordGrant(parts.audit, 'grant.made', grant, made.by, now);
  await tx.emit('policy.grants.updated', {}, ADMINS);
  return { ...approval, decision: personDecision(approval, q, answers, resolvedBy, grant.id) };
}
