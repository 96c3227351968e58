import type { Result, RouteState, SecretRequestRecord } from '../../protocol/index.ts';
import { startRoute } from '../../routing/index.ts';
import type { Identity } from '../auth.ts';
import type { Tx } from '../hub/hub.ts';
import { asQuestion, secretAudience } from '../secrets/secrets.ts';
import type { StoredSecretRequest } from '../store/types.ts';
import { chooseFor, envOf, routeInWords } from './route-env.ts';
import type { RoutingParts } from './routing-room.ts';
import { EXHAUSTED_REASON, stepRoute, withSkips } from './route-duty.ts';

/**
 * E1/E2/E11 for K1: a secret request a `kind: "secret"` route matches is routed as a question is. Its route lives in
 * its record (never a value: the route names people and times only) and its steps run on the same escalation duty.
 */
export class SecretRoutes {
  constructor(private readonly parts: RoutingParts) {}

  private async envFor(r: SecretRequestRecord) {
    const owner = r.sessionKey === undefined ? undefined : await this.parts.access.ownerOf(r.sessionKey);
    return envOf(this.parts.routing, this.parts.auth, { ...asQuestion(r), ...(r.route ? { route: r.route } : {}) }, owner, 'secret');
  }

  /** E9 for K1: the route with the display names of the people notified so far, for every view of the request. */
  private named(route: RouteState): RouteState {
    const names: Record<string, string> = {};
    for (const id of route.notified) {
      const name = this.parts.auth.displayName(id);
      if (name !== id) names[id] = name;
    }
    const rest = { ...route };
    delete rest.names;
    return Object.keys(names).length > 0 ? { ...rest, names } : rest;
  }

  /** E2, before the insert: the record with its route's first step, or as it was. K1 has no `source` and no `tool`. */
  async routeNew(identity: Identity, record: StoredSecretRequest): Promise<StoredSecretRequest> {
    const facts = { kind: 'secret' as const, agent: identity.id, ...(record.sessionKey !== undefined ? { session: record.sessionKey } : {}) };
    const choice = chooseFor(this.parts.routing, facts);
    if (!choice) return record;
    const env = await this.envFor({ ...record, route: { escalation: choice.escalation, step: 0, notified: [], eligible: [] } });
    if (!env) return record;
    const change = startRoute(env, record.createdAtMs);
    const route = this.named(withSkips(change, record.createdAtMs));
    // Steps that ran out as they started: the duty applies `exhausted` at once.
    return { ...record, route: change.exhausted ? { ...route, nextAtMs: record.createdAtMs } : route };
  }

  /**
   * E9/E12 for K1: the open routed secret requests this identity may see (A3, as secret.list shows them), each with its
   * step, timer and route in words; nothing at all of the others.
   */
  async statusFor(identity: Identity): Promise<NonNullable<Result<'routing.status'>['secrets']>> {
    const rows: NonNullable<Result<'routing.status'>['secrets']> = [];
    for (const r of await this.parts.secrets.pendingFor(identity)) {
      if (!r.route) continue;
      const { step, nextAtMs } = r.route;
      const words = routeInWords(this.parts.auth, this.parts.clock, await this.envFor(r), r.route, r.expiresAtMs);
      rows.push({ id: r.id, name: r.name, ...(r.sessionKey !== undefined ? { sessionKey: r.sessionKey } : {}), step, ...(nextAtMs !== undefined ? { nextAtMs } : {}), ...words });
    }
    return rows;
  }

  private async due(now: number): Promise<StoredSecretRequest[]> {
    const pending = await this.parts.store.listSecretRequests({ status: 'pending' });
    return pending.filter((r) => r.route?.nextAtMs !== undefined && r.route.nextAtMs <= now);
  }

  /** The earliest step deadline of the pending routed secret requests. */
  async nextAtMs(): Promise<number | null> {
    let next: number | null = null;
    for (const r of await this.parts.store.listSecretRequests({ status: 'pending' })) {
      const at = r.route?.nextAtMs;
      if (at !== undefined && (next === null || at < next)) next = at;
    }
    return next;
  }

  /** The due steps, read inside the transaction: another gateway may have provided or stepped some meanwhile (D3). */
  async runDue(now: number): Promise<void> {
    if ((await this.due(now)).length === 0) return;
    await this.parts.hub.commit(async (tx) => {
      for (const r of await this.due(now)) await this.stepIn(tx, r, now);
    });
  }

  /** One step of one secret request: the next targets notified, or `exhausted` applied (E2: `deny` and `expire` end it as expired). */
  private async stepIn(tx: Tx, listed: StoredSecretRequest, now: number): Promise<void> {
    // Read again where it is written (locked on PostgreSQL): a provide or another gateway's step may have come first.
    const r = await this.parts.store.getSecretRequest(listed.id);
    if (!r || r.status !== 'pending' || r.route?.nextAtMs === undefined || r.route.nextAtMs > now) return;
    const { route, notify, ends } = stepRoute(r.route as RouteState, now, await this.envFor(r));
    const next = { ...r, route: this.named(route) };
    if (ends) return this.parts.secrets.finishIn(tx, next, { status: 'expired', reason: EXHAUSTED_REASON });
    await this.saveIn(tx, next, notify);
  }

  /** E11: a route changed: stored with its request, and `secret.routed` to those who may see the request. */
  private async saveIn(tx: Tx, r: StoredSecretRequest, notify: readonly string[] = []): Promise<void> {
    if (!r.route) return;
    await this.parts.store.updateSecretRequest(r);
    const payload = { id: r.id, ...(r.sessionKey !== undefined ? { sessionKey: r.sessionKey } : {}), route: r.route, ...(notify.length ? { notify: [...notify] } : {}) };
    await tx.emit('secret.routed', payload, secretAudience(r));
  }
}
