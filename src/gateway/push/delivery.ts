/**
 * U17/S5: getting one push to one subscription: encrypted and signed a turn at a time, a bounded number under way,
 * retried with backoff or as Retry-After asks, and the subscription dropped when its push service no longer knows it
 * or its pushes keep failing. Sending is fetch with timers: the event loop never waits on a push service.
 */
import webpush from 'web-push';
import type { PushPayload } from '../../protocol/index.ts';
import type { GatewayLog } from '../infra/logger.ts';
import type { PushKeys, PushSubscriptionRow } from '../store/types.ts';
import { Slots, TurnGate } from './pacing.ts';
import type { FailureCounts } from './subscriptions.ts';

export type PushJob = { sub: PushSubscriptionRow; payload: PushPayload; ttlS: number; urgency: 'high' | 'normal' };

export type DeliveryOptions = {
  /** The VAPID `sub` claim: how a push service reaches the gateway's operator (`mailto:` or `https:`). */
  subject?: string;
  /** Tries per push (default 4) and the longest wait between them (default 60 s); a longer Retry-After gives up. */
  attempts?: number;
  maxRetryDelayMs?: number;
  /** Pushes under way at once (default 16): each holds a socket to its push service. */
  concurrency?: number;
};

export type DeliveryParts = {
  keys: () => Promise<PushKeys>;
  log: GatewayLog;
  failures: FailureCounts;
  /** Ends a subscription for good (deleted from the store), logging `message`. */
  drop: (sub: PushSubscriptionRow, why: { status: number }, message: string) => Promise<void>;
};

/** Seconds (or an HTTP date) of a Retry-After header, as milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export class PushDelivery {
  private readonly inFlight = new Set<AbortController>();
  /** Retry waits, each with what ends it early (stop). */
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private stopped = false;
  /** S5: one encryption per turn of the event loop, and a bounded number of pushes under way. */
  private readonly gate = new TurnGate();
  private readonly slots: Slots;

  constructor(
    private readonly parts: DeliveryParts,
    private readonly opts: DeliveryOptions = {},
  ) {
    this.slots = new Slots(opts.concurrency ?? 16);
  }

  /** Ends the retry waits and aborts the pushes under way; nothing is sent after. */
  stop(): void {
    this.stopped = true;
    for (const [timer, done] of this.timers) {
      clearTimeout(timer);
      done();
    }
    this.timers.clear();
    for (const ctrl of this.inFlight) ctrl.abort();
  }

  async deliver(job: PushJob): Promise<void> {
    const attempts = this.opts.attempts ?? 4;
    const maxDelay = this.opts.maxRetryDelayMs ?? 60_000;
    const keys = await this.parts.keys();
    const origin = new URL(job.sub.endpoint).origin;
    const deadlineMs = Date.now() + job.ttlS * 1000;
    for (let attempt = 1; attempt <= attempts && !this.stopped; attempt++) {
      const sent = await this.slots.run(() => this.send(job, keys, deadlineMs, attempt));
      if (sent === null) return;
      const { status, retryAfter } = sent;
      if (status >= 200 && status < 300) return this.parts.failures.delivered(job.sub.endpoint);
      if (status === 404 || status === 410) {
        // The browser unsubscribed or the subscription expired: it will never work again.
        return await this.parts.drop(job.sub, { status }, 'dropped a push subscription its push service no longer knows');
      }
      const retryable = status === 0 || status === 429 || status >= 500;
      const asked = retryAfterMs(retryAfter, Date.now());
      const wait = asked ?? Math.min(maxDelay, 1000 * 2 ** (attempt - 1));
      if (!retryable || attempt === attempts || wait > maxDelay) {
        this.parts.log.warn({ endpointOrigin: origin, status, attempt, retryAfterMs: asked }, 'gave up a push');
        if (this.parts.failures.failed(job.sub.endpoint))
          await this.parts.drop(job.sub, { status }, 'dropped a push subscription whose pushes kept failing');
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

  /**
   * One try: encrypted and signed in a turn of its own (S5), then POSTed. Status 0 when the push service could not be
   * reached; null when the gateway stopped.
   */
  private async send(job: PushJob, keys: PushKeys, deadlineMs: number, attempt: number): Promise<{ status: number; retryAfter: string | null } | null> {
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
