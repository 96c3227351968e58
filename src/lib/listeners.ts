/**
 * A set of listeners: `add` hands back its own removal, `emit` calls each one added before the call
 * (a listener that adds or removes others meanwhile changes only later emits).
 */
export class Listeners<Args extends unknown[] = []> {
  private readonly set = new Set<(...args: Args) => void>();

  add(listener: (...args: Args) => void): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  emit(...args: Args): void {
    for (const listener of [...this.set]) listener(...args);
  }

  /** Calls `call` with each listener (a caller that guards every call on its own). */
  each(call: (listener: (...args: Args) => void) => void): void {
    for (const listener of [...this.set]) call(listener);
  }

  get size(): number {
    return this.set.size;
  }

  clear(): void {
    this.set.clear();
  }
}
