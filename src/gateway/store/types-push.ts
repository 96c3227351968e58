/** U17: the gateway's VAPID key pair (base64url, as web-push makes them); made once, kept with the gateway's data. */
export type PushKeys = { publicKey: string; privateKey: string; createdAtMs: number };
/**
 * U17: one browser's push subscription, for the identity that subscribed it. `tokenHash` names the token it was made
 * with (a hash of that token's hash, never the token): once that token no longer authenticates, the subscription ends.
 */
export type PushSubscriptionRow = { endpoint: string; identity: string; tokenHash: string; p256dh: string; auth: string; createdAtMs: number };
/** What `putPushSubscription` did: stored it (and dropped these endpoints of the identity's oldest), or refused it. */
export type PushPutResult = { stored: true; dropped: string[] } | { stored: false; reason: 'taken' };

/** U17: the Web Push part of the store. */
export interface PushStoreMethods {
  /** The stored VAPID key pair; `fresh` is stored only when there is none yet (the first gateway's pair wins). */
  pushKeys(fresh: PushKeys): PushKeys;
  /**
   * Stores or replaces the subscription of this endpoint when it is new or already `s.identity`'s (a browser
   * re-subscribing moves to the end); an endpoint another identity holds is refused (`taken`), never moved. With `keep`,
   * the identity's oldest subscriptions beyond `keep` (this one counted) are deleted in the same change.
   */
  putPushSubscription(s: PushSubscriptionRow, keep?: number): PushPutResult;
  /** Deletes the subscription of this endpoint, only when it is `identity`'s if that is given; true when one was deleted. */
  deletePushSubscription(endpoint: string, identity?: string): boolean;
  /** Oldest first; every identity's when `identity` is not given. */
  listPushSubscriptions(identity?: string): PushSubscriptionRow[];
}
