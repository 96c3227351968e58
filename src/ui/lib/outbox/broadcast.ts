import { OutboxRow } from './machine.ts';
import { array, literal, object, read, string, union, type Checked } from '../shape.ts';

/** The part of BroadcastChannel the outbox uses, so tests can pass a fake. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (ev: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (ev: { data: unknown }) => void): void;
  close?(): void;
}

export const OUTBOX_CHANNEL = 'askdock-outbox';

const Broadcast = union(
  object({ v: literal(1), from: string(), kind: literal('changed'), ids: array(string()) }),
  object({ v: literal(1), from: string(), kind: literal('discarded'), row: OutboxRow }),
);

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
  const post = (message: Checked<typeof Broadcast>) => {
    try {
      channel?.postMessage(message);
    } catch (err) {
      onError(err);
    }
  };
  const onMessage = (ev: { data: unknown }) => {
    const msg = read(Broadcast, ev.data);
    if (!msg || msg.from === tabId || closed) return;
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
