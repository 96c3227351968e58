import { createOutbox, OUTBOX_CHANNEL, type ChannelLike, type Outbox, type OutboxClient } from './outbox.ts';
import { createOutboxStorage } from './storage.ts';

/**
 * The outbox on IndexedDB and the `askdock-outbox` BroadcastChannel: a chunk of its own (with the sender, the storage
 * and idb), loaded as the app starts, never in the way of the first screen (see `lazy-outbox.ts`).
 */
export function createBrowserOutbox(client: OutboxClient, tabId: string): Outbox {
  const Channel = (globalThis as { BroadcastChannel?: new (name: string) => ChannelLike }).BroadcastChannel;
  return createOutbox({ client, tabId, storage: createOutboxStorage(), channel: Channel ? new Channel(OUTBOX_CHANNEL) : null });
}
