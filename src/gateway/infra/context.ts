import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Values that follow the running code through its awaits (the request a handler serves, the transaction a unit runs
 * in, what a read outside one waits for), all carried by ONE AsyncLocalStorage of the process. On Node 20 every enabled
 * AsyncLocalStorage sets a property on each promise made anywhere in the process, and the promise's fourth property
 * grows its backing store: a PostgreSQL gateway used to enable three (bench/FINDINGS.md sections 78 and 81). Nothing is
 * enabled until a slot first runs, so a gateway whose store sets none (SQLite, memory) pays nothing.
 */
type Frame = Record<symbol, unknown>;

const frames = new AsyncLocalStorage<Frame>();

/**
 * One value of the running code's context, as an AsyncLocalStorage of its own would hold it: `run` sets it for `fn` and
 * what `fn` starts, every other slot keeps what the code around it set, and it is back as it was once `fn` returns.
 */
export class ContextSlot<T> {
  private readonly key: symbol;

  constructor(name: string) {
    this.key = Symbol(name);
  }

  /** The value of the innermost `run` of this slot around the running code, if any. */
  get(): T | undefined {
    return frames.getStore()?.[this.key] as T | undefined;
  }

  run<R>(value: T, fn: () => R): R {
    const outer = frames.getStore();
    // As AsyncLocalStorage.run does for the store already active: nothing to set.
    if (outer !== undefined && outer[this.key] === value) return fn();
    // A frame of its own (the outer one is never changed): the slots set around this run stay as they are inside it.
    return frames.run({ ...outer, [this.key]: value }, fn);
  }
}
