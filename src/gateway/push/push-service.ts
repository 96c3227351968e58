import webpush from 'web-push';
import { PUSH_SUBSCRIPTIONS_PER_IDENTITY, type PushPayload, type PushSubscriptionInfo, type PushSubscriptionInput, type QuestionRecord } from '../../protocol/index.ts';
import { kindOf } from '../../answers/kinds/index.ts';
import type { Authenticator, Identity } from '../auth.ts';
import type { RoomParts } from '../sessions/room-parts.ts';
import type { PushKeys, PushSubscriptionRow, StoredEvent } from '../store/types.ts';
import { canSeeQuestion } from '../sessions/visibility.ts';
import { allowedOrigins, refusedEndpoint } from './endpoints.ts';
import { Slots, TurnGate } from './pacing.ts';
import { endpointTaken, FailureCounts, subscriptionId, subscriptionInfo, subscriptionNotFound } from './subscriptions.ts';

export type PushOptions = {
  /** Origins besides the browsers' push services a subscription may name (tests, a self-hosted push service). */
  allowedEndpoints?: string[];
  /** The VAPID `sub` claim: how a push service reaches the gateway's operator (`mailto:` or `https:`). */
  subject?: string;
  /** Tries per push (default 4) and the longest wait between them (default 60 s); a longer Retry-After gives up. */
  attempts?: number;
  maxRetryDelayMs?: number;
  /** Pushes under way at once (default 16): each holds a socket to its push service. */
  concurrency?: number;
};

/** A question without an expiry is worth delivering for a day; a push service keeps nothing longer than it is told. */
const TTL_WITHOUT_EXPIRY_S = 24 * 60 * 60;
/** Push services take about 4 KB of encrypted payload; the plain JSON stays well under. */
const MAX_PAYLOAD_BYTES = 3_600;
const BODY_MAX = 600;

const cut = (text: string, max: number) => {
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
};

/**
 * U17: what a question's notification shows and no more: the first item's header and question, the two labels when
 * it is one single-select item with exactly two options (then its item id, to answer it), and the link page path.
 */
export function questionPayload(q: QuestionRecord): PushPayload {
  const first = q.questions[0];
  const more = q.questions.length > 1 ? ` (+${q.questions.length - 1} more)` : '';
  const taps = q.questions.length === 1 ? kindOf(first).oneTap(first) : null;
  const twoWay = taps !== null && taps.length === 2;
  const base = {
    type: 'question' as const,
    id: q.id,
    title: first.header,
    ...(twoWay ? { itemId: first.id, actions: [...taps] } : {}),
    path: `/q/${encodeURIComponent(q.id)}`,
  };
  let body = cut(first.question, BODY_MAX) + more;
  while (Buffer.byteLength(JSON.stringify({ ...base, body })) > MAX_PAYLOAD_BYTES) body = cut(body, [...body].length - 50);
  return { ...base, body };
}

type Job = { sub: PushSubscriptionRow; payload: PushPayload; ttlS: number; urgency: 'high' | 'normal' };

/** Seconds (or an HTTP date) of a Retry-After header, as milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * U17: Web Push for the Control UI. Subscriptions live in the store (any gateway reads them); the gateway that commits
 * a `question.requested` (exactly one does, D2) sends it to every subscription whose identity may see it (A3), and the
 * one that commits its `question.resolved`/`question.retired` sends the close. Sending is fetch with timers: the event
 * loop never waits on a push service.
 */
export class PushService {
  private readonly allowed: Set<string>;
  private keyPair: Promise<PushKeys> | null = null;
  private readonly inFlight = new Set<AbortController>();
  /** Retry waits, each with what ends it early (stop). */
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private unlisten: (() => void) | null = null;
  private stopped = false;
  /** Settles when every push started so far has finished (tests wait on it). */
  private pending = new Set<Promise<void>>();
  /**
   * The read of the subscriptions under way: the events heard while it runs use it too, so a burst of questions costs
   * one read (on a network database, one round trip), not one per event. A change made here starts the next one afresh.
   */
  private reading: Promise<PushSubscriptionRow[]> | null = null;
  /** S5: one encryption per turn of the event loop, and a bounded number of pushes under way. */
  private readonly gate = new TurnGate();
  private readonly slots: Slots;
  private readonly failures = new FailureCounts();

  constructor(
    private readonly parts: RoomParts & { readonly auth: Pick<Authenticator, 'identityById' | 'pushTokenTag'> },
    private readonly opts: PushOptions = {},
  ) {
    this.allowed = allowedOrigins(opts.allowedEndpoints ?? []);
    this.slots = new Slots(opts.concurrency ?? 16);
  }

  start(): void {
    this.unlisten = this.parts.hub.listen((ev) => this.heard(ev));
  }

  stop(): void {
    this.stopped = true;
    this.unlisten?.();
    this.unlisten = null;
    for (const [timer, done] of this.timers) {
      clearTimeout(timer);
      done();
    }
    this.timers.clear();
    for (const ctrl of this.inFlight) ctrl.abort();
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
    if (this.stopped) return;
    const run = this.fanOut(ev).catch((err: unknown) => this.parts.log.error({ err }, 'a push could not be sent'));
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  private async fanOut(ev: StoredEvent): Promise<void> {
    if (ev.event === 'question.requested') {
      const q = (ev.payload as { question: QuestionRecord }).question;
      const ttlS = q.expiresAtMs === null ? TTL_WITHOUT_EXPIRY_S : Math.max(0, Math.ceil((q.expiresAtMs - this.parts.clock.now()) / 1000));
      await this.sendToViewers(q, questionPayload(q), ttlS, q.mode === 'blocking' ? 'high' : 'normal');
    } else if (ev.event === 'question.resolved' || ev.event === 'question.retired') {
      const id = (ev.payload as { id: string }).id;
      // The record is read only where some browser subscribed (on a network database a read is a round trip).
      await this.sendToViewers(() => this.parts.store.getQuestion(id), { type: 'close', id }, TTL_WITHOUT_EXPIRY_S, 'normal');
    }
  }

  /** A3: only subscriptions of identities that may see the question, so a privileged one reaches no one else. */
  private async sendToViewers(
    question: QuestionRecord | (() => Promise<QuestionRecord | undefined>),
    payload: PushPayload,
    ttlS: number,
    urgency: Job['urgency'],
  ): Promise<void> {
    const subs = await this.live(await this.subscriptions());
    if (subs.length === 0) return;
    const q = typeof question === 'function' ? await question() : question;
    if (!q) return;
    const owner = q.sessionKey === undefined ? undefined : await this.parts.access.ownerOf(q.sessionKey);
    for (const sub of subs) {
      const identity = this.parts.auth.identityById(sub.identity);
      if (!identity || !canSeeQuestion(identity, q, owner)) continue;
      const run = this.deliver({ sub, payload, ttlS, urgency }).catch((err: unknown) =>
        this.parts.log.error({ err, endpointOrigin: new URL(sub.endpoint).origin }, 'a push failed'),
      );
      this.pending.add(run);
      void run.finally(() => this.pending.delete(run));
    }
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

  private async deliver(job: Job): Promise<void> {
    const attempts = this.opts.attempts ?? 4;
    const maxDelay = this.opts.maxRetryDelayMs ?? 60_000;
    const keys = await this.keys();
    const origin = new URL(job.sub.endpoint).origin;
    const deadlineMs = Date.now() + job.ttlS * 1000;
    for (let attempt = 1; attempt <= attempts && !this.stopped; attempt++) {
      const sent = await this.slots.run(() => this.send(job, keys, deadlineMs, attempt));
      if (sent === null) return;
      const { status, retryAfter } = sent;
      if (status >= 200 && status < 300) return this.failures.delivered(job.sub.endpoint);
      if (status === 404 || status === 410) {
        // The browser unsubscribed or the subscription expired: it will never work again.
        return await this.drop(job.sub, { status }, 'dropped a push subscription its push service no longer knows');
      }
      const retryable = status === 0 || status === 429 || status >= 500;
      const asked = retryAfterMs(retryAfter, Date.now());
      const wait = asked ?? Math.min(maxDelay, 1000 * 2 ** (attempt - 1));
      if (!retryable || attempt === attempts || wait > maxDelay) {
        this.parts.log.warn({ endpointOrigin: origin, status, attempt, retryAfterMs: asked }, 'gave up a push');
        if (this.failures.failed(job.sub.endpoint))
          await this.drop(job.sub, { status }, 'dropped a push subscription whose pushes kept failing');
        return;
      }
      await new Promise<void>((done) => {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          done();
        }, wait);
        this.timers.set(timer, done);
      });
    }
  }

  private async drop(sub: PushSubscriptionRow, why: { status: number }, message: string): Promise<void> {
    this.reading = null;
    this.failures.forget(sub.endpoint);
    await this.parts.store.deletePushSubscription(sub.endpoint, sub.identity);
    this.parts.log.info({ endpointOrigin: new URL(sub.endpoint).origin, ...why }, message);
  }

  /**
   * One try: encrypted and signed in a turn of its own (S5), then POSTed. Status 0 when the push service could not be
   * reached; null when the gateway stopped.
   */
  private async send(job: Job, keys: PushKeys, deadlineMs: number, attempt: number): Promise<{ status: number; retryAfter: string | null } | null> {
    await this.gate.turn();
    if (this.stopped) return null;
    const details = webpush.generateRequestDetails(
      { endpoint: job.sub.endpoint, keys: { p256dh: job.sub.p256dh, auth: job.sub.auth } },
      JSON.stringify(job.payload),
      {
        vapidDetails: { subject: this.opts.subject ?? 'mailto:askdock@localhost.localdomain', publicKey: keys.publicKey, privateKey: keys.privateKey },
        // TTL: what is left of the question's time, also on a retry.
        TTL: Math.max(0, Math.ceil((deadlineMs - Date.now()) / 1000)),
        urgency: job.urgency,
        contentEncoding: 'aes128gcm',
      },
    );
    const ctrl = new AbortController();
    this.inFlight.add(ctrl);
    try {
      const res = await fetch(job.sub.endpoint, {
        method: 'POST',
        headers: details.headers as Record<string, string>,
        body: new Uint8Array(details.body as Buffer),
        signal: AbortSignal.any([ctrl.signal, AbortSignal.timeout(30_000)]),
        redirect: 'error',
      });
      await res.body?.cancel();
      return { status: res.status, retryAfter: res.headers.get('retry-after') };
    } catch (err) {
      if (this.stopped) return null;
      this.parts.log.warn({ err, endpointOrigin: new URL(job.sub.endpoint).origin, attempt }, 'a push service could not be reached');
      return { status: 0, retryAfter: null };
    } finally {
      this.inFlight.delete(ctrl);
    }
  }
}
