// An event's frame on the wire: every recipient of one event gets the same bytes, built once.
import type { StoredEvent } from '../store/types.ts';
import { textFrame, type WireFrame } from './wire.ts';

/**
 * The frame's text; around `payloadJson` when the caller has the payload as JSON (the hub has it for the events this
 * gateway committed: serialised once, for the store and the frame).
 */
export function eventFrameText(ev: Pick<StoredEvent, 'event' | 'payload' | 'seq'>, payloadJson?: string): string {
  // The same text JSON.stringify gives for { type, event, payload, seq }.
  if (payloadJson !== undefined) return `{"type":"event","event":${JSON.stringify(ev.event)},"payload":${payloadJson},"seq":${ev.seq}}`;
  return JSON.stringify({ type: 'event', event: ev.event, payload: ev.payload, seq: ev.seq });
}

/** An event's common frame, built on first use. (Returned, not bound to a name: a named closure costs a `__name` call per event where the sources run through tsx.) */
export function sharedFrame(ev: StoredEvent, payloadJson?: string): () => WireFrame {
  let frame: WireFrame | undefined;
  return () => (frame ??= textFrame(eventFrameText(ev, payloadJson)));
}
