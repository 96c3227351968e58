/**
 * U17/S5: web-push encrypts and signs synchronously (about a millisecond and a half each), so a question with many
 * subscriptions must not do them all in one turn of the event loop. `TurnGate` lets one waiter through per turn (each
 * on its own `setImmediate`, after the I/O of that turn), `Slots` bounds how many pushes are under way at once.
 */
export class TurnGate {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** Resolves in a later turn of the event loop than any other waiter's. */
  turn(): Promise<void> {
    return new Promise((ok) => {
      this.waiting.push(ok);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.waiting.shift()?.();
      this.schedule();
    });
  }
}

/** At most `limit` holders at once; the others wait in order. */
export class Slots {
  private held = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.held >= this.limit) await new Promise<void>((ok) => this.waiting.push(ok));
    else this.held++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.held--;
    }
  }
}
