import { DEFAULT_TIMEOUT_MS } from '../../protocol/rules.ts';
import { AskdockError, invalidRequest, type Answers, type ChosenGrant, type Params, type QuorumState, type Result, type RouteState } from '../../protocol/index.ts';
import { acknowledge, approve, dryRun, handOff, mayAnswer, requestOfRule, schedulesStatus, startRoute, type RoutingConfig } from '../../routing/index.ts';
import { routeToolMatcher } from '../../policy/index.ts';
import type { Authenticator, Identity } from '../auth.ts';
import type { Tx } from '../hub/hub.ts';
import { answerAllows } from '../policy/approval-decision.ts';
import type { QuestionManager } from '../questions/questions.ts';
import type { SecretManager } from '../secrets/secrets.ts';
import { SecretRoutes } from './secret-routes.ts';
import type { RoomParts } from '../sessions/room-parts.ts';
import { canSeeQuestion } from '../sessions/visibility.ts';
import type { StoredQuestion, StoredSecretRequest } from '../store/types.ts';
import { askFacts, chooseFor, envOf, routeInWords } from './route-env.ts';
import { RouteDuty, saveRouteIn, withSkips } from './route-duty.ts';
import { routeFor } from './handoff-view.ts';
import type { AuditRoom } from '../audit/audit-room.ts';
import { recordRoute, skipsOf } from '../audit/route-entries.ts';

export type RoutingParts = RoomParts & {
  routing: RoutingConfig;
  auth: Authenticator;
  questions: Pick<QuestionManager, 'finishIn'>;
  /** K1: where a routed secret request whose steps ran out ends, and those an identity may see (A3). */
  secrets: Pick<SecretManager, 'finishIn' | 'pendingFor'>;
  /** D3: whether this gateway holds the once-only duties (always, on one gateway). */
  dutyHeld: () => boolean;
  /** L1: where route changes are recorded (absent: not recorded). */
  audit?: AuditRoom;
};

const isAdmin = (identity: Identity) => identity.scopes.has('operator.admin');

/** E5: a person's approval holds the grant of their latest vote (none: a plain Allow); the others' stay as they were. */
function withGrant(route: RouteState, identity: string, grant: ChosenGrant | undefined): RouteState {
  if (!route.quorum) return route;
  const approvals = route.quorum.approvals.map(({ grant: held, ...a }) => (a.identity !== identity ? { ...a, ...(held ? { grant: held } : {}) } : { ...a, ...(grant ? { grant } : {}) }));
  return { ...route, quorum: { ...route.quorum, approvals } };
}

/** E5: who approved and the grant each holds, to tell whether a vote changed what is kept. */
const votesOf = (route: RouteState | undefined) => JSON.stringify(route?.quorum?.approvals.map((a) => [a.identity, a.grant]));

/** The route an event made or changed, for a question or a secret request. */
function routeOf(event: string, payload: unknown): RouteState | undefined {
  if (event === 'question.routed' || event === 'secret.routed') return (payload as { route?: RouteState }).route;
  if (event === 'question.requested') return (payload as { question: { route?: RouteState } }).question.route;
  if (event === 'secret.requested') return (payload as { request: { route?: RouteState } }).request.route;
  return undefined;
}

/**
 * Routing's room (PRODUCT E1-E10, PROTOCOL E11-E12): a question's route chosen and started when it is asked, who may
 * answer it, acknowledgements, hand-offs, quorums, and the escalation duty. Built with what it uses.
 */
export class RoutingRoom {
  readonly duty: RouteDuty;
  private readonly secrets: SecretRoutes;

  constructor(private readonly parts: RoutingParts) {
    this.secrets = new SecretRoutes(parts);
    this.duty = new RouteDuty(parts, (q) => this.envFor(q), this.secrets);
  }

  get routed(): boolean {
    return this.parts.routing.routes.length > 0;
  }

  start(): void {
    if (this.routed) this.duty.start();
  }

  stop(): void {
    this.duty.stop();
  }

  private async ownerOf(q: StoredQuestion): Promise<string | undefined> {
    return q.sessionKey === undefined ? undefined : await this.parts.access.ownerOf(q.sessionKey);
  }

  private async envFor(q: StoredQuestion) {
    return envOf(this.parts.routing, this.parts.auth, q, await this.ownerOf(q));
  }

  /** E2: in question.request's transaction, before the insert: the record with its route's first step, or as it was. */
  async routeNew(identity: Identity, record: StoredQuestion, p: Params<'question.request'>): Promise<StoredQuestion> {
    if (!this.routed) return record;
    const choice = chooseFor(this.parts.routing, askFacts(identity, record, p));
    if (!choice) return record;
    const draft: StoredQuestion = { ...record, route: { escalation: choice.escalation, step: 0, notified: [], eligible: [] } };
    const env = await this.envFor(draft);
    if (!env) return record;
    const change = startRoute(env, record.createdAtMs, choice.quorum);
    const route = withSkips(change, record.createdAtMs);
    // Steps that ran out as they started: the duty applies `exhausted` at once.
    return { ...record, route: change.exhausted ? { ...route, nextAtMs: record.createdAtMs } : route };
  }

  /** K1/E2: in secret.request's transaction, before the insert: the request with its route's first step, or as it was. */
  routeNewSecret(identity: Identity, record: StoredSecretRequest): Promise<StoredSecretRequest> {
    return this.routed ? this.secrets.routeNew(identity, record) : Promise.resolve(record);
  }

  /** D2: a route made or changed on another gateway: this one wakes for its deadline too, should it take the duty. */
  heard(event: string, payload: unknown): void {
    if (!this.routed) return;
    const route = routeOf(event, payload);
    if (route?.nextAtMs !== undefined) this.duty.note(route.nextAtMs);
  }

  /** After the commit: the duty wakes at the new route's deadline. */
  noted(q: { route?: RouteState }): void {
    if (q.route?.nextAtMs !== undefined) this.duty.note(q.route.nextAtMs);
  }

  /**
   * E3/E5, in question.resolve's transaction: refuses an identity that may not answer (FORBIDDEN with the eligible),
   * and holds an Allow that leaves a quorum short (the record keeps the approval, with the grant it chose, already
   * checked; the answer is `pending`). A person's later vote counts once and its grant replaces the one they held.
   */
  async checkAnswerIn(tx: Tx, identity: Identity, q: StoredQuestion, answers: Answers | undefined, surface: string, grant?: ChosenGrant): Promise<{ pending?: QuorumState; q: StoredQuestion } | undefined> {
    const route = q.route;
    if (!route) return undefined;
    this.requireEligible(identity, q);
    if (!answers || !route.quorum || !q.approval) return undefined;
    const behavior = answerAllows(q, answers) ? 'allow' : 'deny';
    const verdict = approve(route, { identity: identity.id, isAdmin: isAdmin(identity) }, behavior, surface, this.parts.clock.now());
    if (!verdict.ok) throw this.notEligible(identity, route);
    const next: StoredQuestion = { ...q, route: this.named(withGrant(verdict.state as RouteState, identity.id, grant)) };
    if (verdict.verdict !== 'pending') return { q: next };
    // Short of the quorum: the approval is kept (once per identity, with its latest grant) and the question stays pending.
    if (votesOf(next.route) !== votesOf(route)) await this.saveIn(tx, next);
    return { pending: next.route?.quorum as QuorumState, q: next };
  }

  /** E4/E5: who is on it and who approved, with the display names every surface shows ("Ana is on it"). */
  private named(route: RouteState): RouteState {
    const name = (id: string) => this.parts.auth.displayName(id);
    const ackedBy = route.ackedBy && { ...route.ackedBy, name: name(route.ackedBy.identity) };
    const quorum = route.quorum && { ...route.quorum, approvals: route.quorum.approvals.map((a) => ({ ...a, name: name(a.identity) })) };
    return { ...route, ...(ackedBy ? { ackedBy } : {}), ...(quorum ? { quorum } : {}) };
  }

  /** E3: refuses an identity a routed question (or secret request) does not wait for. */
  requireEligible(identity: Identity, q: { route?: RouteState }): void {
    if (q.route && !mayAnswer(q.route, identity.id, isAdmin(identity))) throw this.notEligible(identity, q.route);
  }

  private notEligible(identity: Identity, route: RouteState): AskdockError {
    // E12: admins may always answer, so the list names only the people the question waits for.
    const eligible = route.eligible.filter((id) => {
      const who = this.parts.auth.identityById(id);
      return !(who && isAdmin(who));
    });
    return new AskdockError('FORBIDDEN', `${identity.id} may not answer this question: it waits for ${eligible.join(', ') || 'nobody yet'}`, {
      details: { eligible },
    });
  }

  private saveIn(tx: Tx, q: StoredQuestion): Promise<void> {
    return saveRouteIn(this.parts, tx, q);
  }

  private async routedQuestion(identity: Identity, id: string, where: string): Promise<StoredQuestion> {
    const q = await this.parts.store.getQuestion(id);
    if (!q || !canSeeQuestion(identity, q, await this.ownerOf(q))) throw new AskdockError('QUESTION_NOT_FOUND', `no question "${id}"`, { details: { id } });
    if (q.status !== 'pending') throw new AskdockError('QUESTION_ALREADY_TERMINAL', `question "${id}" is already ${q.status}`, { details: { id, status: q.status } });
    if (!q.route) throw invalidRequest(where, [{ path: 'id', problem: `question "${id}" is not routed: no route matched it` }]);
    return q;
  }

  /** E4 question.ack: "I'm on it" pauses the escalation for its ackTimeout. */
  async ack(identity: Identity, p: Params<'question.ack'>): Promise<Result<'question.ack'>> {
    const route = await this.parts.hub.commit(async (tx) => {
      const q = await this.routedQuestion(identity, p.id, 'question.ack');
      const env = await this.envFor(q);
      if (!env) throw invalidRequest('question.ack', [{ path: 'id', problem: `question "${p.id}" follows an escalation the config no longer has` }]);
      const r = acknowledge(q.route as RouteState, { identity: identity.id, isAdmin: isAdmin(identity) }, this.parts.clock.now(), env);
      if (!r.ok) throw this.notEligible(identity, q.route as RouteState);
      const next = { ...q, route: this.named(r.state as RouteState) };
      await saveRouteIn(this.parts, tx, next, [], true);
      await recordRoute(this.parts.audit, 'question.acknowledged', q, this.parts.clock.now(), { identity: identity.id });
      return next.route;
    });
    if (route.nextAtMs !== undefined) this.duty.note(route.nextAtMs);
    return { route: routeFor(route, identity.id) };
  }

  /** E6 question.handoff: the target is notified and may answer; the note and drafts go with it. */
  async handoff(identity: Identity, p: Params<'question.handoff'>): Promise<Result<'question.handoff'>> {
    const route = await this.parts.hub.commit(async (tx) => {
      const q = await this.routedQuestion(identity, p.id, 'question.handoff');
      const env = await this.envFor(q);
      if (!env) throw invalidRequest('question.handoff', [{ path: 'id', problem: `question "${p.id}" follows an escalation the config no longer has` }]);
      const now = this.parts.clock.now();
      const r = handOff(q.route as RouteState, { identity: identity.id, isAdmin: isAdmin(identity) }, p.to, p.note, now, env);
      if (!r.ok) {
        if (r.code === 'FORBIDDEN') throw this.notEligible(identity, q.route as RouteState);
        throw invalidRequest('question.handoff', [{ path: 'to', problem: r.message.replace(/^to: /, '') }]);
      }
      const route = withSkips(r, now);
      // E6: the drafts go with the hand-off they were typed before, for the people it reached (handoff-view.ts).
      const reached = r.reached.filter((id) => id !== identity.id);
      const handoffs = p.drafts && route.handoffs ? [...route.handoffs.slice(0, -1), { ...route.handoffs[route.handoffs.length - 1], drafts: p.drafts, reached }] : route.handoffs;
      const next = { ...q, route: { ...route, ...(handoffs ? { handoffs } : {}) } };
      await saveRouteIn(this.parts, tx, next, r.notify);
      const skips = skipsOf(route.skipped?.slice(q.route?.skipped?.length ?? 0));
      await recordRoute(this.parts.audit, 'question.handedOff', q, now, { identity: identity.id, detail: { to: p.to, notified: r.notify.join(','), ...skips } });
      return next.route;
    });
    return { route: routeFor(route, identity.id) };
  }

  /**
   * E8: question.waitAnswer of a routed question carries who answered (with their display name and surface), the
   * quorum's approvals and the escalation trail (its route).
   */
  async withTrail(id: string, result: Result<'question.waitAnswer'>): Promise<Result<'question.waitAnswer'>> {
    if (!this.routed || result.status === 'pending') return result;
    const q = await this.parts.store.getQuestion(id);
    if (!q?.route) return result;
    const named = q.resolvedBy && { ...q.resolvedBy, name: this.parts.auth.displayName(q.resolvedBy.identity) };
    const decision = result.decision?.resolvedBy ? { ...result.decision, resolvedBy: { ...result.decision.resolvedBy, name: this.parts.auth.displayName(result.decision.resolvedBy.identity) } } : result.decision;
    return { ...result, ...(named ? { resolvedBy: named } : {}), ...(decision ? { decision } : {}), route: routeFor(q.route, q.askedBy) };
  }

  /** E12 routing.status: each schedule now and next, and the routed questions and secret requests the caller may see. */
  async status(identity: Identity): Promise<Result<'routing.status'>> {
    const questions: Result<'routing.status'>['questions'] = [];
    for (const q of await this.parts.store.listQuestions({ status: 'pending' })) {
      if (!q.route || !canSeeQuestion(identity, q, await this.ownerOf(q))) continue;
      const { step, nextAtMs, ackedBy } = q.route;
      questions.push({ id: q.id, step, ...(nextAtMs !== undefined ? { nextAtMs } : {}), ...(ackedBy ? { ackedBy } : {}), ...routeInWords(this.parts.auth, this.parts.clock, await this.envFor(q), q.route, q.expiresAtMs) });
    }
    // E9: each person on call by display name too, as the On call page lists them.
    const schedules = schedulesStatus(this.parts.routing.schedules, this.parts.clock.now()).map((s) => ({
      ...s,
      ...(s.now !== null ? { nowName: this.parts.auth.displayName(s.now) } : {}),
      ...(s.next !== null ? { nextName: this.parts.auth.displayName(s.next) } : {}),
    }));
    return { schedules, questions, secrets: await this.secrets.statusFor(identity) };
  }

  /** E12 routing.test: the route a described question would take, offline (no one is asked). */
  test(p: Params<'routing.test'>): Result<'routing.test'> {
    const atMs = p.at !== undefined ? Date.parse(p.at) : this.parts.clock.now();
    const tool = p.tool !== undefined ? requestOfRule(p.tool) : undefined;
    if (p.tool !== undefined && !tool) throw invalidRequest('routing.test', [{ path: 'tool', problem: `"${p.tool}" must name one request, such as "Bash(git push origin main)"` }]);
    const kind = p.kind ?? (tool ? 'approval' : 'question');
    const facts = {
      kind,
      ...(p.agent !== undefined ? { agent: p.agent } : {}),
      ...(p.source !== undefined ? { source: p.source } : {}),
      ...(p.session !== undefined ? { session: p.session } : {}),
      ...(tool ? { tool } : {}),
    };
    // E10: the steps past the question's timeout are the unreached ones: a question's own default unless told.
    const timeoutMs = p.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return dryRun({ routing: this.parts.routing, facts, atMs, timeoutMs, tools: routeToolMatcher, identities: this.parts.auth.identityIds });
  }
}
