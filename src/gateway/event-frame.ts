// An event's frame on the wire: every recipient of one event gets the same bytes, built once.
import type { StoredEvent } from './store/types.ts';
import { textFrame, type WireFrame } from './wire.ts';

/** The payload JSON of events committed by this gateway, serialised once for the store and reused for their frame. */
const payloadTexts = new WeakMap<object, string>();

/** The frame's text; around the payload's stored JSON when this gateway committed the event. */
export function eventFrameText(ev: Pick<StoredEvent, 'event' | 'payload' | 'seq'>): string {
  const json = payloadTexts.get(ev);
  // The same text JSON.stringify gives for { type, event, payload, seq }, around the payload's JSON made for the store.
  if (json !== undefined) return `{"type":"event","event":${JSON.stringify(ev.event)},"payload":${json},"seq":${ev.seq}}`;
  return JSON.stringify({ type: 'event', event: ev.event, payload: ev.payload, seq: ev.seq });
}

/** An event's common frame, built on first use. (Returned, not bound to a name: a named closure costs a `__name` call per event where the sources run through tsx.) */
export function sharedFrame(ev: StoredEvent): () => WireFrame {
  let frame: WireFrame | undefined;
  return () => (frame ??= textFrame(eventFrameText(ev)));
}


/** Keeps the payload JSON the store was given for `ev`, for its frame. */
export function rememberPayloadText(ev: StoredEvent, json: string): void {
  payloadTexts.set(ev, json);
}
