import type { Clock, TimerHandle } from '../infra/clock.ts';

/**
 * A request's cancellation as a waiting handler sees it (P2's cancel frame, or its socket closing). Lighter than an
 * AbortSignal, which every `question.waitAnswer` would otherwise make along with its listener.
 */
export interface Cancellation {
  readonly cancelled: boolean;
  readonly reason: Error | undefined;
  /** Calls `fn` once, when the request is cancelled; returns the undo. */
  onCancel(fn: (reason: Error) => void): () => void;
}

/** For callers that never cancel (an in-process adapter awaits its own calls). */
export const neverCancelled: Cancellation = { cancelled: false, reason: undefined, onCancel: () => () => {} };

/** One waiting caller: settled once, by the outcome, its timeout or its cancellation, whichever comes first. */
class Wait<T, R> {
  timer: TimerHandle | undefined;
  undoCancel: (() => void) | undefined;

  constructor(
    private readonly owner: Waiters<T>,
    readonly id: string,
    private readonly answer: (value: T) => R,
    private readonly resolve: (r: R) => void,
  ) {}

  /** Leaves the registry, clearing its timer and its cancel hook; false when it was already settled. */
  end(): boolean {
    if (!this.owner.forget(this)) return false;
    if (this.timer !== undefined) this.owner.clock.clearTimeout(this.timer);
    this.undoCancel?.();
    return true;
  }

  wake(value: T): void {
    if (this.end()) this.resolve(this.answer(value));
  }
}

/**
 * Callers waiting for something of an id to end (Q4 answers, K1 secret outcomes), woken after the commit that ended
 * it, by their own timeout, or by their request's cancellation.
 */
export class Waiters<T> {
  private readonly byId = new Map<string, Set<Wait<T, any>>>();
  /**
   * Waits being set up (the record is being read): a value woken meanwhile is kept for them, since the read may have
   * been answered before that value committed and the wait is not registered yet.
   */
  private readonly early = new Map<string, { count: number; outcome?: T }>();

  constructor(readonly clock: Clock) {}

  /**
   * Waits for `wake(id, value)` and answers `answer(value)`; after `timeoutMs` (when given) answers `onTimeout()`;
   * rejects with the reason when the request is cancelled.
   */
  wait<R>(id: string, timeoutMs: number | undefined, cancellation: Cancellation, answer: (value: T) => R, onTimeout: () => R): Promise<R> {
    if (cancellation.cancelled) return Promise.reject(cancellation.reason);
    return new Promise<R>((resolve, reject) => {
      const wait = new Wait(this, id, answer, resolve);
      let set = this.byId.get(id);
      if (!set) this.byId.set(id, (set = new Set()));
      set.add(wait);
      if (timeoutMs !== undefined) wait.timer = this.clock.setTimeout(() => wait.end() && resolve(onTimeout()), timeoutMs);
      wait.undoCancel = cancellation.onCancel((reason) => wait.end() && reject(reason));
    });
  }

  /**
   * Before reading `id` for a wait: `outcome` is the value woken for it since (if any), to be used over a read that
   * still says pending; call `done` once the wait is registered or refused (true when it was the last being set up).
   */
  expect(id: string): { outcome(): T | undefined; done(): boolean } {
    let slot = this.early.get(id);
    if (!slot) this.early.set(id, (slot = { count: 0 }));
    slot.count++;
    const held = slot;
    return {
      outcome: () => held.outcome,
      done: () => {
        if (--held.count > 0 || this.early.get(id) !== held) return false;
        this.early.delete(id);
        return true;
      },
    };
  }

  /** Whether anyone waits for `id`, or is about to (`expect`). */
  waiting(id: string): boolean {
    return this.byId.has(id) || this.early.has(id);
  }

  /** Whether a wait for `id` is registered (not counting those being set up). */
  registered(id: string): boolean {
    return this.byId.has(id);
  }

  wake(id: string, value: T): void {
    const slot = this.early.get(id);
    if (slot) slot.outcome = value;
    const set = this.byId.get(id);
    if (!set) return;
    for (const wait of [...set]) wait.wake(value);
  }

  /** @internal Removes `wait`; false when it was no longer there. */
  forget(wait: Wait<T, any>): boolean {
    const set = this.byId.get(wait.id);
    if (!set?.delete(wait)) return false;
    if (set.size === 0) this.byId.delete(wait.id);
    return true;
  }
}
