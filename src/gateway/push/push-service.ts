import webpush from 'web-push';
import { PUSH_SUBSCRIPTIONS_PER_IDENTITY, type EventPayload, type PushPayload, type PushSubscriptionInfo, type PushSubscriptionInput, type QuestionRecord, type RouteState } from '../../protocol/index.ts';
import type { Authenticator, Identity } from '../auth.ts';
import type { RoomParts } from '../sessions/room-parts.ts';
import type { PushKeys, PushSubscriptionRow, StoredEvent } from '../store/types.ts';
import { canSeeQuestion } from '../sessions/visibility.ts';
import { answeredByText, approvalDecision } from '../../lib/answered-by.ts';
import { PushDelivery, type DeliveryOptions, type PushJob } from './delivery.ts';
import { allowedOrigins, refusedEndpoint } from './endpoints.ts';
import { questionPayload, questionTtlS, takenPayload, TTL_WITHOUT_EXPIRY_S } from './payload.ts';
import { endpointTaken, FailureCounts, subscriptionId, subscriptionInfo, subscriptionNotFound } from './subscriptions.ts';

export { questionPayload } from './payload.ts';
export { retryAfterMs } from './delivery.ts';

export type PushOptions = DeliveryOptions & {
  /** Origins besides the browsers' push services a subscription may name (tests, a self-hosted push service). */
  allowedEndpoints?: string[];
};

/** The events `fanOut` pushes something for. */
const PUSHED_BY = new Set(['question.requested', 'question.routed', 'question.resolved', 'question.retired']);

/**
 * U17: Web Push for the Control UI. Subscriptions live in the store (any gateway reads them); the gateway that commits
 * a `question.requested` (exactly one does, D2) sends it to every subscription whose identity may see it (A3), and the
 * one that commits its `question.resolved`/`question.retired` sends the close. Each push goes out through
 * `PushDelivery` (delivery.ts): paced, retried, and never making the event loop wait on a push service.
 */
export class PushService {
  private readonly allowed: Set<string>;
  private keyPair: Promise<PushKeys> | null = null;
  private unlisten: (() => void) | null = null;
  private stopped = false;
  /** Settles when every push started so far has finished (tests wait on it). */
  private pending = new Set<Promise<void>>();
  /**
   * The read of the subscriptions under way: the events heard while it runs use it too, so a burst of questions costs
   * one read (on a network database, one round trip), not one per event. A change made here starts the next one afresh.
   */
  private reading: Promise<PushSubscriptionRow[]> | null = null;
  private readonly failures = new FailureCounts();
  private readonly delivery: PushDelivery;
  /** L1: told who a question's push went to (the audit log's `question.notified`, surface push). */
  onNotified: ((q: QuestionRecord, identities: string[]) => Promise<void>) | null = null;

  constructor(
    private readonly parts: RoomParts & { readonly auth: Pick<Authenticator, 'identityById' | 'pushTokenTag'> },
    opts: PushOptions = {},
  ) {
    this.allowed = allowedOrigins(opts.allowedEndpoints ?? []);
    const drop = (sub: PushSubscriptionRow, why: { status: number }, message: string) => this.drop(sub, why, message);
    this.delivery = new PushDelivery({ keys: () => this.keys(), log: parts.log, failures: this.failures, drop }, opts);
  }

  start(): void {
    this.unlisten = this.parts.hub.listen((ev) => this.heard(ev));
  }

  stop(): void {
    this.stopped = true;
    this.unlisten?.();
    this.unlisten = null;
    this.delivery.stop();
  }

  /** Made on first use and kept in the store; a pair already stored (another gateway's, an earlier run's) wins. */
  keys(): Promise<PushKeys> {
    if (this.keyPair) return this.keyPair;
    const fresh = webpush.generateVAPIDKeys();
    const stored = this.parts.store.pushKeys({ ...fresh, createdAtMs: this.parts.clock.now() });
    // One read for every caller; a failed one is asked again next time.
    this.keyPair = stored;
    stored.catch(() => {
      if (this.keyPair === stored) this.keyPair = null;
    });
    return stored;
  }

  async config(): Promise<{ publicKey: string }> {
    return { publicKey: (await this.keys()).publicKey };
  }

  /**
   * Bound to the token the caller connected with; an endpoint another identity holds is refused, and past
   * PUSH_SUBSCRIPTIONS_PER_IDENTITY the identity's oldest is dropped.
   */
  async subscribe(identity: Identity, subscription: PushSubscriptionInput): Promise<{ subscribed: boolean; id: string }> {
    const refused = refusedEndpoint('push.subscribe', 'subscription.endpoint', subscription.endpoint, this.allowed);
    if (refused) throw refused;
    this.reading = null;
    const put = await this.parts.store.putPushSubscription(
      {
        endpoint: subscription.endpoint,
        identity: identity.id,
        tokenHash: this.parts.auth.pushTokenTag(identity.id) ?? '',
        p256dh: subscription.keys.p256dh,
        auth: subscription.keys.auth,
        createdAtMs: this.parts.clock.now(),
      },
      PUSH_SUBSCRIPTIONS_PER_IDENTITY,
    );
    if (!put.stored) throw endpointTaken();
    for (const endpoint of put.dropped) this.failures.forget(endpoint);
    return { subscribed: true, id: subscriptionId(subscription.endpoint) };
  }

  /** The caller's own devices, oldest first; one made with a token that no longer authenticates is ended, not listed. */
  async list(identity: Identity): Promise<{ subscriptions: PushSubscriptionInfo[] }> {
    const rows = await this.live(await this.parts.store.listPushSubscriptions(identity.id));
    return { subscriptions: rows.map(subscriptionInfo) };
  }

  async unsubscribe(identity: Identity, which: { endpoint?: string; id?: string }): Promise<{ unsubscribed: boolean }> {
    this.reading = null;
    if (which.endpoint !== undefined) return { unsubscribed: await this.parts.store.deletePushSubscription(which.endpoint, identity.id) };
    const id = which.id ?? '';
    const own = (await this.parts.store.listPushSubscriptions(identity.id)).find((row) => subscriptionId(row.endpoint) === id);
    if (!own || !(await this.parts.store.deletePushSubscription(own.endpoint, identity.id))) throw subscriptionNotFound(id);
    this.failures.forget(own.endpoint);
    return { unsubscribed: true };
  }

  /**
   * The rows whose token still authenticates as their identity; the others (a rotated token, an identity gone from
   * the config) are deleted: nothing is sent to them again.
   */
  private async live(rows: PushSubscriptionRow[]): Promise<PushSubscriptionRow[]> {
    const ended = rows.filter((row) => !row.tokenHash || row.tokenHash !== this.parts.auth.pushTokenTag(row.identity));
    if (ended.length === 0) return rows;
    this.reading = null;
    for (const row of ended) {
      await this.parts.store.deletePushSubscription(row.endpoint, row.identity);
      this.failures.forget(row.endpoint);
    }
    this.parts.log.info({ ended: ended.length }, 'ended push subscriptions whose token no longer authenticates');
    return rows.filter((row) => !ended.includes(row));
  }

  /** Every push started so far has been delivered, dropped or given up. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Tracked with the pushes, so `idle` also waits for the reads that decide who gets one. */
  private heard(ev: StoredEvent): void {
    // Most events (session.updated, chat, runs) push nothing: no promise is made for them.
    if (this.stopped || !PUSHED_BY.has(ev.event)) return;
    const run = this.fanOut(ev).catch((err: unknown) => this.parts.log.error({ err }, 'a push could not be sent'));
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  private async fanOut(ev: StoredEvent): Promise<void> {
    if (ev.event === 'question.requested') {
      const q = (ev.payload as { question: QuestionRecord }).question;
      // E2: a routed question is pushed to its step's people only.
      // The payload is made only where some browser subscribed (sendToViewers).
      await this.sendToViewers(q, questionPayload, questionTtlS(q, this.parts.clock.now()), q.mode === 'blocking' ? 'high' : 'normal', q.route?.notified);
    } else if (ev.event === 'question.routed') {
      const { id, notify, route, acked } = ev.payload as EventPayload<'question.routed'>;
      if (acked) await this.sayTaken(id, route);
      // E2/E6: the next step's people (or a hand-off's target) get it now.
      if (!notify?.length) return;
      const q = await this.parts.store.getQuestion(id);
      if (q?.status === 'pending') await this.sendToViewers(q, questionPayload, questionTtlS(q, this.parts.clock.now()), q.mode === 'blocking' ? 'high' : 'normal', notify);
    } else if (ev.event === 'question.resolved' || ev.event === 'question.retired') {
      const id = (ev.payload as { id: string }).id;
      // The record is read only where some browser subscribed (on a network database a read is a round trip).
      // E7: a routed question's notification turns into who answered it (an approval's: and its Allow or Deny).
      const close = (q: QuestionRecord): PushPayload => {
        const text = answeredByText(q);
        const decision = approvalDecision(q);
        return { type: 'close', id, ...(text ? { text } : {}), ...(decision ? { decision } : {}) };
      };
      await this.sendToViewers(() => this.parts.store.getQuestion(id), close, TTL_WITHOUT_EXPIRY_S, 'normal');
    }
  }

  /**
   * E4: "Ana is on it" on the notifications of the people notified so far: for the acknowledgement's own event only (a
   * route changes for other reasons too), which exactly one gateway commits, so it is said once.
   */
  private async sayTaken(id: string, route: RouteState): Promise<void> {
    const ack = route.ackedBy;
    if (!ack) return;
    const q = await this.parts.store.getQuestion(id);
    if (q?.status === 'pending') await this.sendToViewers(q, takenPayload(q, `${ack.name ?? ack.identity} is on it`), questionTtlS(q, this.parts.clock.now()), 'normal', route.notified);
  }

  /** A3: only subscriptions of identities that may see the question, so a privileged one reaches no one else. */
  private async sendToViewers(
    question: QuestionRecord | (() => Promise<QuestionRecord | undefined>),
    payload: PushPayload | ((q: QuestionRecord) => PushPayload),
    ttlS: number,
    urgency: PushJob['urgency'],
    only?: readonly string[],
  ): Promise<void> {
    const subs = await this.live(await this.subscriptions());
    if (subs.length === 0) return;
    const q = typeof question === 'function' ? await question() : question;
    if (!q) return;
    const owner = q.sessionKey === undefined ? undefined : await this.parts.access.ownerOf(q.sessionKey);
    const said = typeof payload === 'function' ? payload(q) : payload;
    const reached = new Set<string>();
    for (const sub of subs) {
      const identity = this.parts.auth.identityById(sub.identity);
      if (!identity || !canSeeQuestion(identity, q, owner) || (only && !only.includes(identity.id))) continue;
      reached.add(identity.id);
      const run = this.delivery.deliver({ sub, payload: said, ttlS, urgency }).catch((err: unknown) =>
        this.parts.log.error({ err, endpointOrigin: new URL(sub.endpoint).origin }, 'a push failed'),
      );
      this.pending.add(run);
      void run.finally(() => this.pending.delete(run));
    }
    if (said.type === 'question' && reached.size > 0 && this.onNotified)
      await this.onNotified(q, [...reached]).catch((err: unknown) => this.parts.log.error({ err }, 'recording a push in the audit log failed'));
  }

  private subscriptions(): Promise<PushSubscriptionRow[]> {
    if (this.reading) return this.reading;
    const read = this.parts.store.listPushSubscriptions();
    this.reading = read;
    const done = () => {
      if (this.reading === read) this.reading = null;
    };
    read.then(done, done);
    return read;
  }

  private async drop(sub: PushSubscriptionRow, why: { status: number }, message: string): Promise<void> {
    this.reading = null;
    this.failures.forget(sub.endpoint);
    await this.parts.store.deletePushSubscription(sub.endpoint, sub.identity);
    this.parts.log.info({ endpointOrigin: new URL(sub.endpoint).origin, ...why }, message);
  }
}
