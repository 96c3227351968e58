import { AskdockError } from '../protocol/askdock-error.ts';

/** Callers of `ready()` waiting for the connection: each settles once, on the next hello, a failure, or its own timeout. */
export class ReadyWaiters {
  private readonly waiting = new Set<{ resolve: () => void; reject: (e: unknown) => void }>();

  wait(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const w = {
        resolve: () => {
          clearTimeout(t);
          this.waiting.delete(w);
          resolve();
        },
        reject: (e: unknown) => {
          clearTimeout(t);
          this.waiting.delete(w);
          reject(e);
        },
      };
      const t = setTimeout(() => w.reject(new AskdockError('UNAVAILABLE', 'not connected to the gateway', { retryable: true })), timeoutMs);
      this.waiting.add(w);
    });
  }

  resolveAll(): void {
    for (const w of [...this.waiting]) w.resolve();
  }

  rejectAll(err: unknown): void {
    for (const w of [...this.waiting]) w.reject(err);
  }
}
