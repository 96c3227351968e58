import { strung } from './literal.ts';

/**
 * Statements a transaction puts off until its next one, which carries them in the same round trip (transactions.ts
 * `deferred`): its BEGIN, a unit's SAVEPOINT, the RELEASE of the one before, a one-row write (pool.ts `writeOne`). A
 * unit that sends nothing costs no round trip at all. Positions count every statement put off since the transaction
 * began: one at position p is still waiting while p >= `sent`, the count handed over so far.
 */
export class PutOffQueue {
  private waiting: string[] = [];
  private sent = 0;
  private put = 0;
  /** The positions of the one-row writes put off, taken back only when undone. */
  private writes: number[] = [];

  /** Hands over (once) all that waits, each statement followed by `; `; '' when nothing does. */
  handOver(): string {
    if (this.waiting.length === 0) return '';
    const text = strung(this.waiting, '; ') + '; ';
    this.sent = this.put;
    this.waiting = [];
    this.writes = [];
    return text;
  }

  /** Puts `statement` off until the next one; its position. */
  add(statement: string): number {
    this.waiting.push(statement);
    return this.put++;
  }

  /** Puts off a one-row write. */
  addWrite(statement: string): void {
    this.writes.push(this.add(statement));
  }

  /**
   * Drops what was put off from position `at` on, if it is still waiting: true when it was. A write among it is dropped
   * only when what wrote it is undone (`undone`); else nothing is.
   */
  takeBack(at: number, undone = false): boolean {
    if (at < this.sent) return false;
    // Dropped already, with a statement put off before it (two units side by side, the first undone): nothing from `at`
    // on waits, and the queue must not grow back to it (a hole would be written as a statement).
    if (at - this.sent >= this.waiting.length) return true;
    if (!undone && this.writes.some((w) => w >= at)) return false;
    this.waiting.length = at - this.sent;
    this.put = at;
    this.writes = this.writes.filter((w) => w < at);
    return true;
  }

  /** Drops all that waits (a unit whose SAVEPOINT left already is undone on the database). */
  dropWaiting(): void {
    this.waiting = [];
    this.writes = [];
    this.put = this.sent;
  }

  /** The transaction ended: the next starts from position 0. */
  clear(): void {
    this.waiting = [];
    this.writes = [];
    this.sent = this.put = 0;
  }
}
