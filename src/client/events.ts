import { Listeners } from '../lib/listeners.ts';
import { events as eventSchemas, isEventName, type AnyEvent, type EventFrame, type EventName, type EventPayload } from '../protocol/index.ts';

/** The client's event listeners, by event name and for every event; payloads are checked against the protocol first. */
export class EventRouter {
  private readonly handlers = new Map<string, Listeners<[payload: unknown, seq?: number]>>();
  private readonly anyHandlers = new Listeners<[AnyEvent]>();

  on<E extends EventName>(event: E, handler: (payload: EventPayload<E>, seq?: number) => void): () => void {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Listeners()));
    return set.add(handler as (payload: unknown, seq?: number) => void);
  }

  onAny(handler: (e: AnyEvent) => void): () => void {
    return this.anyHandlers.add(handler);
  }

  /** The event as this client knows it, or null for an unknown event or a payload it cannot read (ignored, never fatal). */
  read(frame: EventFrame): AnyEvent | null {
    if (!isEventName(frame.event)) return null;
    const parsed = eventSchemas[frame.event].safeParse(frame.payload);
    if (!parsed.success) return null;
    return { event: frame.event, payload: parsed.data, seq: frame.seq } as AnyEvent;
  }

  emit(e: AnyEvent): void {
    this.handlers.get(e.event)?.emit(e.payload, e.seq);
    this.anyHandlers.emit(e);
  }
}
