import { AskdockError, invalidRequest, type Answers, type ApprovalRequest, type ChosenGrant, type GrantRequest, type Params, type PolicyGrant, type ResolvedBy, type Result } from '../../protocol/index.ts';
import { decide } from '../../policy/index.ts';
import type { Identity } from '../auth.ts';
import type { Tx } from '../hub/hub.ts';
import { forbidden } from '../sessions/visibility.ts';
import type { StoredApproval, StoredGrant, StoredQuestion } from '../store/types.ts';
import { decisionOf } from './approval-decision.ts';
import { recordGrant } from '../audit/grant-entries.ts';
import { recordPolicyLoaded } from '../audit/policy-entries.ts';
import { ApprovalDesk, factsOf, requireToolName, type ApprovalParts } from './approvals.ts';
import { ADMINS, answerApprovalIn, chooseGrant, requireGrantAllowed } from './grant-answers.ts';
import type { PolicyState } from './policy-source.ts';

const isAdmin = (identity: Identity) => identity.scopes.has('operator.admin');

function grantView(g: StoredGrant): PolicyGrant {
  const { revokedAtMs: _revoked, ...view } = g;
  return view;
}

/**
 * The approval policy's room (PRODUCT G, PROTOCOL G11-G12): approvals decided by the policy and the grants, the
 * grants a person's "Always allow…" makes, and what admins read of it. Built with what it uses.
 */
export class PolicyRoom {
  private readonly desk: ApprovalDesk;
  private stopUpdates: (() => void) | null = null;

  constructor(private readonly parts: ApprovalParts) {
    this.desk = new ApprovalDesk(parts);
  }

  /** Watches the policy file and tells admins each reload (G10: a failed one with why). */
  start(): void {
    this.stopUpdates = this.parts.source.onUpdated((state) => this.announce(state));
    this.parts.source.start();
  }

  stop(): void {
    this.stopUpdates?.();
    this.parts.source.stop();
  }

  /** A reload changes what this gateway decides by: stored (R1) for admins, so one who reconnects hears of a failed one. */
  private announce(state: PolicyState): void {
    const payload = { loadedAtMs: state.loadedAtMs, ...(state.error !== undefined ? { error: state.error } : {}) };
    this.parts.hub
      .commit(async (tx) => {
        await tx.emit('policy.updated', payload, ADMINS);
        await this.recordLoad(state);
      })
      .catch((err: unknown) => this.parts.log.error({ err }, 'announcing the policy reload failed'));
  }

  /** L1: the policy this gateway started with, an entry of the audit log (none when it has no policy). */
  async recordStart(): Promise<void> {
    if (this.parts.source.source !== undefined) await this.parts.hub.commit(() => this.recordLoad(this.parts.source.current));
  }

  private async recordLoad(state: PolicyState): Promise<void> {
    const source = this.parts.source.source;
    if (source !== undefined) await recordPolicyLoaded(this.parts.audit, state, source);
  }

  /** G11: question.request with an approval. */
  request(identity: Identity, clientId: string, p: Params<'question.request'> & { approval: ApprovalRequest }): Promise<Result<'question.request'>> {
    return this.desk.request(identity, clientId, p);
  }

  /** G5/G12: inside the answer's transaction (QuestionManager.resolve): its decision, and the grant chosen (grantChosen). */
  answeredIn(tx: Tx, identity: Identity, q: StoredQuestion, answers: Answers, grant: ChosenGrant | undefined, resolvedBy: ResolvedBy): Promise<StoredApproval> | undefined {
    return q.approval ? answerApprovalIn(this.parts, tx, identity, { ...q, approval: q.approval }, answers, grant, resolvedBy) : undefined;
  }

  /** G5/A5, before an answer to an approval does anything (E5: a vote is held): refuses a grant this identity may not make. */
  requireGrantMaker(identity: Identity, q: StoredQuestion, answers: Answers, grant: GrantRequest | undefined): void {
    if (q.approval) requireGrantAllowed(identity, { ...q, approval: q.approval }, answers, grant);
  }

  /** G5/G7, before an answer is held (E5) or decides: the grant it asks for, checked in full, or why it cannot be made. */
  grantChosen(identity: Identity, q: StoredQuestion, answers: Answers, grant: GrantRequest | undefined): ChosenGrant | undefined {
    if (q.approval) return chooseGrant(identity, { ...q, approval: q.approval }, answers, grant);
    if (grant) throw invalidRequest('question.resolve', [{ path: 'grant', problem: `question "${q.id}" is not an approval` }]);
    return undefined;
  }

  /** G11: question.waitAnswer of an approval (its record says so, whatever its items' ids) carries its decision. */
  async withDecision(id: string, result: Result<'question.waitAnswer'>): Promise<Result<'question.waitAnswer'>> {
    if (result.status === 'pending' || result.status === 'cancelled') return result;
    const q = await this.parts.store.getQuestion(id);
    const decision = q && decisionOf(q);
    return decision ? { ...result, decision } : result;
  }

  /** G12 policy.get (operator.admin): the rules with their layers, the live grants, and why the last reload failed. */
  async get(): Promise<Result<'policy.get'>> {
    const { policy, loadedAtMs, error } = this.parts.source.current;
    const grants = await this.parts.store.listGrants(this.parts.clock.now());
    return {
      rules: policy.rules.map((r) => ({ id: r.id, rule: r.rule, decision: r.decision, layer: r.layer, ...(r.reason !== undefined ? { reason: r.reason } : {}) })),
      grants: grants.map(grantView),
      unmatched: policy.unmatched,
      loadedAtMs,
      ...(error !== undefined ? { error } : {}),
    };
  }

  /** G9/G12 policy.check: an admin checks for any agent, an agent for itself. */
  async check(identity: Identity, p: Params<'policy.check'>): Promise<Result<'policy.check'>> {
    requireToolName('policy.check', 'tool', p.tool);
    const admin = isAdmin(identity);
    if (!admin && p.agent !== undefined && p.agent !== identity.id)
      throw forbidden(`policy.check for agent "${p.agent}"`, ['operator.admin'], identity);
    const agent = admin ? (p.agent ?? identity.id) : identity.id;
    const facts = factsOf({ tool: p.tool, input: p.input ?? {}, cwd: p.cwd }, agent);
    const grants = await this.desk.grantsFor({ ...(p.cwd !== undefined ? { project: p.cwd } : {}), agent });
    const verdict = await decide(this.parts.source.current.policy, facts, grants);
    return { decision: verdict.decision, matchedRules: verdict.matchedRules };
  }

  /** G12 policy.grant.revoke: an admin or the grant's maker; anyone else is refused. */
  async revoke(identity: Identity, id: string): Promise<Result<'policy.grant.revoke'>> {
    const { store, hub, clock } = this.parts;
    const grant = await store.getGrant(id);
    // A4/A5: one who may not list the grants (policy.get is operator.admin's) learns nothing of another's grant, not even
    // that it exists: an unknown id and another's grant get the same refusal, naming the scope needed.
    if (!isAdmin(identity) && grant?.grantedBy !== identity.id)
      throw new AskdockError('FORBIDDEN', `grant "${id}" may be revoked by operator.admin or by the identity that made it`, { details: { id, needed: ['operator.admin'] } });
    if (!grant) throw invalidRequest('policy.grant.revoke', [{ path: 'id', problem: `no grant "${id}": policy.get lists the grants in force` }]);
    const revoked = await hub.commit(async (tx) => {
      const now = clock.now();
      const done = await store.revokeGrant(id, now);
      if (done) await recordGrant(this.parts.audit, 'grant.revoked', grant, identity.id, now);
      if (done) await tx.emit('policy.grants.updated', {}, ADMINS);
      return done;
    });
    return { revoked };
  }
}
