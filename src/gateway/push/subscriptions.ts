import { createHash } from 'node:crypto';
import { AskdockError, type PushSubscriptionInfo } from '../../protocol/index.ts';
import type { PushSubscriptionRow } from '../store/types.ts';

/** U17: a subscription's id, made from its endpoint: stable, and saying nothing of the endpoint itself. */
export function subscriptionId(endpoint: string): string {
  return `ps_${createHash('sha256').update(endpoint, 'utf8').digest('base64url').slice(0, 22)}`;
}

/** What `push.list` shows of a subscription: no endpoint, keys or token hash. */
export function subscriptionInfo(row: PushSubscriptionRow): PushSubscriptionInfo {
  return { id: subscriptionId(row.endpoint), service: new URL(row.endpoint).origin, createdAtMs: row.createdAtMs };
}

/** Another identity's id answers the same as one that does not exist (A3: no hint of others' devices). */
export const subscriptionNotFound = (id: string) =>
  new AskdockError('PUSH_SUBSCRIPTION_NOT_FOUND', `push.unsubscribe: no push subscription ${id} of yours (push.list shows yours)`, {
    details: { id },
  });

export const endpointTaken = () =>
  new AskdockError(
    'PUSH_ENDPOINT_TAKEN',
    'push.subscribe: subscription.endpoint: this browser is subscribed for another identity; that identity must turn it off (push.unsubscribe) before another may subscribe it',
  );

/**
 * U17/S5: a subscription is dropped after this many pushes in a row that were given up (after their retries), not only
 * on 404/410: a dead endpoint must not cost every question its retries forever.
 */
export const FAILURES_BEFORE_DROP = 5;

/** Pushes given up in a row, per endpoint, on this gateway; a delivered push clears its count. */
export class FailureCounts {
  private readonly counts = new Map<string, number>();

  /** True when this failure is the one that reaches the limit. */
  failed(endpoint: string): boolean {
    const n = (this.counts.get(endpoint) ?? 0) + 1;
    if (n >= FAILURES_BEFORE_DROP) {
      this.counts.delete(endpoint);
      return true;
    }
    this.counts.set(endpoint, n);
    return false;
  }

  delivered(endpoint: string): void {
    this.counts.delete(endpoint);
  }

  forget(endpoint: string): void {
    this.counts.delete(endpoint);
  }
}
