import type { SessionRow } from './types.ts';

/**
 * The rows one SQLite connection last wrote or read, by key, for a store that holds its file exclusively (the
 * gateway's own, under its lock): no other process writes the file, so what this connection last wrote or read is
 * what the row holds. `question.waitAnswer` and `question.resolve` read the question the request before them has just
 * written (kept as its JSON, parsed afresh for each caller as from the row), and each round trip's two
 * `session.updated` read the same session row. The store forgets a row when it writes it without knowing the result,
 * and everything when a write is rolled back.
 */
export class KnownRows<T> {
  private readonly byKey = new Map<string, T>();

  constructor(private readonly max = 1024) {}

  get(key: string): T | undefined {
    return this.byKey.get(key);
  }

  set(key: string, value: T): void {
    this.byKey.delete(key);
    this.byKey.set(key, value);
    if (this.byKey.size > this.max) this.byKey.delete(this.byKey.keys().next().value!);
  }

  forget(key: string): void {
    this.byKey.delete(key);
  }

  clear(): void {
    this.byKey.clear();
  }
}

/** What a held SQLite file's store keeps: question records as their JSON, session rows without their count. */
export class KnownRecords {
  readonly questions = new KnownRows<string>();
  readonly sessions = new KnownRows<SessionRow>();

  clear(): void {
    this.questions.clear();
    this.sessions.clear();
  }
}
