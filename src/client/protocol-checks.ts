import { events, HelloOk, isEventName, methods, ServerFrame } from '../protocol/index.ts';
import type { AnyEvent } from '../protocol/index.ts';
import type { FrameChecks } from './types.ts';

/**
 * What the client checks everything it reads against: the protocol's zod schemas. Node passes this object; the
 * Control UI loads this module as its own chunk while the first screen renders, so its first load carries no zod.
 */
export const protocolChecks: FrameChecks = {
  frame(data) {
    const parsed = ServerFrame.safeParse(data);
    return parsed.success ? parsed.data : null;
  },
  hello(payload) {
    const parsed = HelloOk.safeParse(payload);
    return parsed.success ? parsed.data : null;
  },
  event(frame) {
    if (!isEventName(frame.event)) return null;
    const parsed = events[frame.event].safeParse(frame.payload);
    return parsed.success ? ({ event: frame.event, payload: parsed.data, seq: frame.seq } as AnyEvent) : null;
  },
  result(method, payload) {
    return methods[method].result.parse(payload) as never;
  },
};
