/** What a unit of work is made of: its Tx, the group it joins, the request it belongs to, its lane. */
import type { EventName, EventPayload } from '../../protocol/index.ts';
import type { GatewayLog } from '../infra/logger.ts';
import type { EventAudience, StoredEvent } from '../store/types.ts';

/**
 * Inside a commit: emit stores the event in the same transaction (`payloadJson`: the payload already as JSON, when the
 * caller made it for something else too); `after` runs once it is durable.
 */
export type Tx = {
  emit<E extends EventName>(event: E, payload: EventPayload<E>, audience: EventAudience, payloadJson?: string): Promise<number>;
  after(fn: () => void): void;
};

/** `texts[i]`: the payload JSON of `events[i]` as stored, which its frame is built around. */
export type Changes = { events: StoredEvent[]; texts: string[]; after: (() => void)[] };
export const noChanges = (): Changes => ({ events: [], texts: [], after: [] });
/** A turn's group: its commits' changes, what waits to learn whether they were kept, and (once known) whether they were. */
export type Group = Changes & { waiting: ((committed: boolean) => void)[]; outcome?: boolean };

/**
 * One request's units of work. On a shared database each lane commits on its own, so a request's answer waits for the
 * groups its own units joined (every other read of it saw only what was committed), not for every lane's.
 */
export class RequestScope {
  /** @internal the groups this request's units joined */
  readonly groups = new Set<Group>();
  /**
   * Set once its handler settled: what runs later in its async context (a timer it armed, an after-hook) is no part of
   * it, so joins nothing here and reads as code outside any request does.
   */
  answered = false;
  /** Settles once its handler settled: by then every unit it asked for has joined its group. */
  readonly handled: Promise<void>;
  private settle: () => void = () => {};

  constructor() {
    this.handled = new Promise<void>((ok) => (this.settle = ok));
  }

  /** Its handler settled (the request is being answered). */
  finish(): void {
    this.answered = true;
    this.settle();
  }
}

export const settled = () => {};

/** A key's lane: the same key, the same lane. */
export function laneOf(key: string, lanes: number): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
  return (h >>> 0) % lanes;
}

/** Runs an after-commit callback: one that throws is logged, and the others still run. */
export function runHook(log: GatewayLog, what: string, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    log.error({ err }, `${what} failed`);
  }
}
