import { randomInt } from 'node:crypto';
import type pg from 'pg';
import type { Postgres } from './pool.ts';

/** 2^21 provisional numbers per gateway before they repeat (only numbers still uncommitted must differ). */
const SPAN = 2 ** 21;

/**
 * D2 and R2 with transactions of several gateways open at once: a transaction's events get a provisional `seq` while it
 * runs (a negative number of this gateway's own range, so it never meets another's or a real one), and their real seqs
 * only as it commits. The commit locks the one `askdock_seq` row, takes as many numbers as it has events, renumbers its
 * events and messages, tells every gateway (NOTIFY) and commits, all in one statement sent once: the lock is held only
 * for that moment, and since it is released after the commit is visible, seqs still become visible in the order they
 * were handed out (a reader never skips one). A message's seq is its `chat` event's, renumbered with it.
 */
export class Numbering {
  private readonly base = randomInt(1, 2 ** 31) * SPAN;
  private counter = 0;
  /** This transaction's provisional event seqs, oldest first. */
  events: number[] = [];
  /** This transaction's new messages with their provisional seqs. */
  messages: { id: string; seq: number }[] = [];
  private settled = new Map<number, number>();
  private settledBefore = new Map<number, number>();

  /** The provisional seq the next event will take. */
  peek(): number {
    return -(this.base + (this.counter % SPAN));
  }

  take(): number {
    const seq = this.peek();
    this.counter++;
    this.events.push(seq);
    return seq;
  }

  message(id: string, seq: number): void {
    if (seq < 0) this.messages.push({ id, seq });
  }

  mark(): [number, number] {
    return [this.events.length, this.messages.length];
  }

  /** A unit rolled back to its savepoint: its events and messages are gone. */
  undo([events, messages]: [number, number]): void {
    this.events.length = events;
    this.messages.length = messages;
  }

  clear(): void {
    this.events = [];
    this.messages = [];
  }

  /** The real seq a provisional one got when its transaction committed (a real one unchanged). */
  settledSeq(seq: number): number {
    if (seq >= 0) return seq;
    return this.settled.get(seq) ?? this.settledBefore.get(seq) ?? seq;
  }

  /** The statement that numbers this transaction's events and commits it (see the class). */
  commitSql(client: pg.PoolClient, channel: string | null): string {
    if (this.events.length === 0) return 'COMMIT';
    const n = this.events.length;
    const messages = this.messages.length
      ? `, g AS (UPDATE messages SET seq = m.seq FROM m WHERE messages.id IN (${this.messages.map((m) => client.escapeLiteral(m.id)).join(', ')})
           AND messages.seq = m.tmp RETURNING 1)`
      : '';
    const notify = channel ? `, pg_notify(${client.escapeLiteral(channel)}, (base + ${n})::text)` : '';
    return `WITH s AS (UPDATE askdock_seq SET value = value + ${n} WHERE id = 1 RETURNING value - ${n} AS base),
      m AS (SELECT t.tmp, s.base + t.ord AS seq FROM s, unnest(ARRAY[${this.events.join(', ')}]::bigint[]) WITH ORDINALITY AS t(tmp, ord)),
      e AS (UPDATE events SET seq = m.seq FROM m WHERE events.seq = m.tmp RETURNING 1)${messages}
      SELECT base${notify}, (SELECT COUNT(*) FROM e) AS numbered FROM s;
      COMMIT`;
  }

  /** After the commit: `base` + i is the real seq of the i-th event (from 1). */
  committed(base: number | null): void {
    this.settledBefore = this.settled;
    this.settled = new Map();
    if (base !== null) this.events.forEach((tmp, i) => this.settled.set(tmp, base + i + 1));
    this.clear();
  }
}

/**
 * Transactions, nested savepoints and the gateway's group commit, with the Store contract's rules, on one connection
 * taken from the pool for as long as the transaction (or group) is open. One at a time per store: the next outer
 * transaction or group waits, without holding up the event loop, until this one ended. No lock is taken at BEGIN:
 * transactions of different gateways run side by side, each row they change locked by PostgreSQL as they change it
 * (and a session, a question, a run read inside a transaction locked as it is read, store.ts), and the numbers are
 * taken at commit (Numbering).
 */
export class Transactions {
  private depth = 0;
  private grouped = false;
  /** Settles when the open outer transaction or group ended. */
  private turn: Promise<void> = Promise.resolve();
  private endTurn: () => void = () => {};
  readonly numbering = new Numbering();

  constructor(
    private readonly pg: Postgres,
    private readonly channel: string | null,
  ) {}

  async transaction<T>(fn: () => Promise<T> | T): Promise<T> {
    const outer = this.depth === 0 && !this.grouped;
    const savepoint = `askdock_sp${this.depth}`;
    if (outer) await this.begin();
    else await this.pg.tx!.query(`SAVEPOINT ${savepoint}`);
    const mark = this.numbering.mark();
    this.depth++;
    let result: T;
    try {
      result = await this.pg.within(fn);
    } catch (err) {
      this.depth--;
      this.numbering.undo(mark);
      await this.undo(outer, savepoint);
      throw err;
    }
    this.depth--;
    if (outer) {
      try {
        await this.commit();
      } finally {
        this.ended();
      }
    } else await this.pg.tx!.query(`RELEASE SAVEPOINT ${savepoint}`);
    return result;
  }

  private async begin(): Promise<void> {
    // Wait for the transaction before this one to end, then take the turn.
    for (;;) {
      const turn = this.turn;
      await turn;
      if (turn === this.turn) break;
    }
    this.turn = new Promise<void>((resolve) => (this.endTurn = resolve));
    let client;
    try {
      client = await this.pg.connect();
    } catch (err) {
      this.endTurn();
      throw err;
    }
    this.pg.tx = client;
    try {
      await client.query('BEGIN');
    } catch (err) {
      await this.rollbackQuietly();
      this.ended();
      throw err;
    }
  }

  private ended(): void {
    const client = this.pg.tx;
    this.numbering.clear();
    this.pg.tx = null;
    client?.release();
    this.endTurn();
  }

  private async rollbackQuietly(): Promise<void> {
    try {
      await this.pg.tx?.query('ROLLBACK');
    } catch {
      // the connection is gone, and the transaction with it
      const client = this.pg.tx;
      this.pg.tx = null;
      client?.release(true);
    }
  }

  /**
   * Numbers the events and commits in one statement. PostgreSQL answers COMMIT of a transaction that hit an error with
   * ROLLBACK, not an error: make it one.
   */
  private async commit(): Promise<void> {
    const client = this.pg.tx!;
    const sql = this.numbering.commitSql(client, this.channel);
    const results = (await client.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
    const all = Array.isArray(results) ? results : [results];
    const last = all[all.length - 1];
    if (last.command !== 'COMMIT') throw new Error('store: PostgreSQL rolled the transaction back instead of committing it');
    const numbered = all.length > 1 ? (all[0].rows[0] as { base: number; numbered: number }) : null;
    // Fewer only where an event of the transaction was pruned inside it (a hole, as in a store that numbers at once).
    if (numbered && Number(numbered.numbered) > this.numbering.events.length)
      throw new Error(`store: numbered ${numbered.numbered} of ${this.numbering.events.length} events`);
    this.numbering.committed(numbered ? Number(numbered.base) : null);
  }

  private async undo(outer: boolean, savepoint: string): Promise<void> {
    if (outer) {
      await this.rollbackQuietly();
      this.ended();
      return;
    }
    try {
      await this.pg.tx!.query(`ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}`);
    } catch {
      // The connection is gone, and the transaction with it: nothing of it was kept.
    }
  }

  async beginGroup(): Promise<void> {
    if (this.depth > 0 || this.grouped) throw new Error('store: beginGroup inside an open transaction');
    this.grouped = true;
    try {
      await this.begin();
    } catch (err) {
      this.grouped = false;
      throw err;
    }
  }

  /** Commits what the group holds. */
  async commitGroup(): Promise<void> {
    if (!this.grouped) throw new Error('store: commitGroup without beginGroup');
    if (this.pg.tx) {
      try {
        await this.commit();
      } finally {
        this.ended();
      }
    }
    this.grouped = false;
  }

  async rollbackGroup(): Promise<void> {
    if (!this.grouped) throw new Error('store: rollbackGroup without beginGroup');
    this.grouped = false;
    // A failed COMMIT or a lost connection may already have ended it.
    if (this.pg.tx) await this.rollbackQuietly();
    this.ended();
  }

  /** On close: an open group or transaction is abandoned, which PostgreSQL rolls back. */
  closing(): void {
    this.depth = 0;
    this.grouped = false;
    this.numbering.clear();
    this.endTurn();
  }
}
