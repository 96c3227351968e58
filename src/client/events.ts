import { Listeners } from '../lib/listeners.ts';
import type { AnyEvent, EventName, EventPayload } from '../protocol/index.ts';

/** The client's event listeners, by event name and for every event; the client checks payloads against the protocol first. */
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

  emit(e: AnyEvent): void {
    this.handlers.get(e.event)?.emit(e.payload, e.seq);
    this.anyHandlers.emit(e);
  }
}
