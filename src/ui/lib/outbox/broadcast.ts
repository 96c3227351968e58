import { z } from 'zod';
import { OutboxRow } from './machine.ts';

/** The part of BroadcastChannel the outbox uses, so tests can pass a fake. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (ev: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (ev: { data: unknown }) => void): void;
  close?(): void;
}

export const OUTBOX_CHANNEL = 'askdock-outbox';

const Broadcast = z.discriminatedUnion('kind', [
  z.object({ v: z.literal(1), from: z.string(), kind: z.literal('changed'), ids: z.array(z.string()) }),
  z.object({ v: z.literal(1), from: z.string(), kind: z.literal('discarded'), row: OutboxRow }),
]);

export type BroadcastOptions = {
  channel: ChannelLike | null;
  tabId: string;
  onError: (error: unknown) => void;
  /** Another tab wrote these rows: read them again from storage. */
  onChanged: (ids: readonly string[]) => void;
  /** Another tab discarded this row. */
  onDiscarded: (row: OutboxRow) => void;
};

export interface OutboxBroadcast {
  changed(...ids: string[]): void;
  discarded(row: OutboxRow): void;
  /** Stops listening and closes the channel (the outbox owns it). */
  close(): void;
}

/**
 * Tells the other tabs of this browser what changed (PRODUCT U11). Messages carry ids only, never the truth:
 * a tab that hears of a change reads the row from the shared storage.
 */
export function createBroadcast(options: BroadcastOptions): OutboxBroadcast {
  const { channel, tabId, onError } = options;
  let closed = false;
  const post = (message: z.infer<typeof Broadcast>) => {
    try {
      channel?.postMessage(message);
    } catch (err) {
      onError(err);
    }
  };
  const onMessage = (ev: { data: unknown }) => {
    const parsed = Broadcast.safeParse(ev.data);
    if (!parsed.success || parsed.data.from === tabId || closed) return;
    const msg = parsed.data;
    if (msg.kind === 'changed') options.onChanged(msg.ids);
    else options.onDiscarded(msg.row);
  };
  channel?.addEventListener('message', onMessage);
  return {
    changed: (...ids) => post({ v: 1, from: tabId, kind: 'changed', ids }),
    discarded: (row) => post({ v: 1, from: tabId, kind: 'discarded', row }),
    close() {
      closed = true;
      channel?.removeEventListener('message', onMessage);
      channel?.close?.();
    },
  };
}
