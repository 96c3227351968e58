import { events, type EventName, type EventPayload } from '../protocol/index.ts';
import type { Clock } from './clock.ts';
import type { EventAudience, Store, StoredEvent } from './store/types.ts';
import type { Viewer } from './visibility.ts';
import { textFrame, type WireFrame } from './wire.ts';

/** A connection as the hub sees it: who looks, and where its frames go. */
export interface Subscriber {
  readonly viewer: Viewer;
  send(out: string | WireFrame): void;
}

/** Inside a commit: emit stores the event in the same transaction; `after` runs once it is committed. */
export type Tx = {
  emit<E extends EventName>(event: E, payload: EventPayload<E>, audience: EventAudience): number;
  after(fn: () => void): void;
};

/** Decides per viewer whether an event is sent and as what; `shared` is the common frame, built once per event. */
export type EventView = (viewer: Viewer, ev: StoredEvent, shared: () => WireFrame) => string | WireFrame | null;

export function eventFrameText(ev: Pick<StoredEvent, 'event' | 'payload' | 'seq'>): string {
  return JSON.stringify({ type: 'event', event: ev.event, payload: ev.payload, seq: ev.seq });
}



/**
 * R1: every state-changing event is appended inside the store transaction of the change,
 * and fanned out only after that transaction committed.
 */
export class EventHub {
  private readonly subscribers = new Set<Subscriber>();
  private open: { events: StoredEvent[]; after: (() => void)[] } | null = null;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly view: EventView,
    private readonly checkPayloads: boolean,
    private readonly log: (line: string) => void,
  ) {}

  add(sub: Subscriber): void {
    this.subscribers.add(sub);
  }

  remove(sub: Subscriber): void {
    this.subscribers.delete(sub);
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** Runs `fn` in one store transaction; nested commits join the outer one. */
  commit<T>(fn: (tx: Tx) => T): T {
    if (this.open) return fn(this.tx);
    const open = { events: [] as StoredEvent[], after: [] as (() => void)[] };
    this.open = open;
    let result: T;
    try {
      result = this.store.transaction(() => fn(this.tx));
    } finally {
      this.open = null;
    }
    for (const ev of open.events) this.fanOut(ev);
    for (const fn of open.after) {
      try {
        fn();
      } catch (err) {
        this.log(`askdock gateway: after-commit hook failed: ${(err as Error).stack ?? String(err)}`);
      }
    }
    return result;
  }

  private readonly tx: Tx = {
    emit: (event, payload, audience) => {
      const open = this.open;
      if (!open) throw new Error('emit outside a commit');
      if (this.checkPayloads) {
        const parsed = events[event].safeParse(payload);
        if (!parsed.success) throw new Error(`event ${event} breaks its schema: ${parsed.error.message}`);
      }
      const row = { event, payload, audience, atMs: this.clock.now() };
      const seq = this.store.appendEvent(row);
      open.events.push({ ...row, seq });
      return seq;
    },
    after: (fn) => {
      if (!this.open) throw new Error('after outside a commit');
      this.open.after.push(fn);
    },
  };

  private fanOut(ev: StoredEvent): void {
    let frame: WireFrame | undefined;
    const shared = () => (frame ??= textFrame(eventFrameText(ev)));
    for (const sub of this.subscribers) {
      // The change is committed: one bad subscriber must not fail the request or starve the others.
      try {
        const out = this.view(sub.viewer, ev, shared);
        if (out !== null) sub.send(out);
      } catch (err) {
        this.log(`askdock gateway: sending event ${ev.seq} failed: ${(err as Error).message}`);
      }
    }
  }

  /**
   * R2: sends every event after `cursor` this viewer may see, oldest first. Synchronous, so nothing
   * committed meanwhile can slip between the replay and live fan-out.
   */
  replay(sub: Subscriber, cursor: number, pageSize = 1000): number {
    let sent = 0;
    let after = cursor;
    for (;;) {
      const page = this.store.eventsAfter(after, pageSize);
      for (const ev of page) {
        const out = this.view(sub.viewer, ev, () => textFrame(eventFrameText(ev)));
        if (out !== null) {
          sub.send(out);
          sent++;
        }
      }
      if (page.length < pageSize) return sent;
      after = page[page.length - 1].seq;
    }
  }
}
