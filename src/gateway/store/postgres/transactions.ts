import type pg from 'pg';
import { Numbering, type SeqRange } from './numbering.ts';
import { DIVISION_BY_ZERO, type TxContext } from './in-transaction.ts';
import { LostGroup, undoUnit } from './lost-group.ts';
import { dropIfSilent, type Postgres } from './pool.ts';
import { PutOffQueue } from './put-off-queue.ts';

/**
 * Transactions, nested savepoints and the gateway's group commit, with the Store contract's rules, on one connection
 * taken from the pool for as long as the transaction (or group) is open. One at a time per store: the next outer
 * transaction or group waits, without holding up the event loop, until this one ended. No lock is taken at BEGIN:
 * transactions of different gateways run side by side, each row they change locked by PostgreSQL as they change it
 * (and a session, a question, a run read inside a transaction locked as it is read, queries.ts), and the numbers are
 * taken at commit (Numbering).
 */
export class Transactions implements TxContext {
  /** The open transaction's (or group's) connection. */
  client: pg.PoolClient | null = null;
  private depth = 0;
  private grouped = false;
  /** The last group's commit failed (and undid it); its rollbackGroup is still to come. */
  private undoneGroup = false;
  /** Settles when the open outer transaction or group ended. */
  private turn: Promise<void> = Promise.resolve();
  private endTurn: () => void = () => {};
  readonly numbering: Numbering;
  /** Statements put off until the transaction's next one, which carries them in the same round trip (`deferred`). */
  private readonly queue = new PutOffQueue();
  /** The units' savepoints, and whether the group is lost (a write put off by a unit that had returned failed). */
  private readonly group = new LostGroup();
  /** The open transaction's connection failed: nothing of it can be kept. */
  private gone = false;
  /** Stops hearing the open transaction's connection fail. */
  private unheard: () => void = () => {};
  /** The audit log's lock (audit.ts): asked for by a unit of this transaction and not granted yet, or held until it ends. */
  auditLock: 'none' | 'asked' | 'held' = 'none';

  constructor(
    private readonly pg: Postgres,
    private readonly channel: string | null,
    range: SeqRange,
  ) {
    this.numbering = new Numbering(range);
  }

  /** Settles when the transaction or group open now (if any) has ended. */
  whenEnded(): Promise<void> {
    return this.turn;
  }

  deferred(): string {
    return this.queue.handOver();
  }

  putOffWrite(statement: string): void {
    this.queue.addWrite(statement);
  }

  async transaction<T>(fn: () => Promise<T> | T): Promise<T> {
    const outer = this.depth === 0 && !this.grouped;
    // A unit asked for after its group was lost fails at once: nothing of the group will be kept.
    if (!outer) this.group.check();
    const savepoint = this.group.nextSavepoint();
    if (outer) await this.begin();
    const at = outer ? -1 : this.queue.add(`SAVEPOINT ${savepoint}`);
    const mark = this.numbering.mark();
    // The audit lock taken by this unit goes with its savepoint's rollback (PostgreSQL releases it there).
    const lockBefore = this.auditLock;
    this.depth++;
    let result: T;
    try {
      result = await this.pg.within(this, fn);
    } catch (err) {
      this.depth--;
      this.numbering.undo(mark);
      // A statement that timed out is still running on the connection: it goes, and the transaction with it.
      if (this.client) dropIfSilent(this.client, err);
      // A unit of the group whose savepoint never ran: what failed was sent ahead of it, put off by a unit that had
      // returned (a nested one's is its enclosing unit's to undo).
      if (!(await this.undo(outer, savepoint, at)) && this.grouped && this.depth === 0) throw this.group.lose(err);
      if (lockBefore === 'none') this.auditLock = 'none';
      throw err;
    }
    this.depth--;
    if (outer) {
      try {
        await this.commitOrUndo();
      } finally {
        this.ended();
      }
    } else if (!this.queue.takeBack(at)) this.queue.add(`RELEASE SAVEPOINT ${savepoint}`);
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
    this.client = client;
    this.pg.open.add(client);
    // A connection the pool lent out has no one else to hear it fail (the database ended it): unheard, it would throw.
    const gone = () => void (this.gone = true);
    client.on('error', gone);
    this.unheard = () => void client.removeListener('error', gone);
    this.queue.add('BEGIN');
  }

  private ended(): void {
    const client = this.client;
    this.queue.clear();
    this.group.reset();
    this.numbering.clear();
    this.auditLock = 'none';
    this.unheard();
    this.unheard = () => {};
    this.gone = false;
    this.client = null;
    if (client && this.pg.open.delete(client)) client.release();
    this.endTurn();
  }

  private async rollbackQuietly(): Promise<void> {
    // Never begun (its BEGIN still waiting): nothing to undo.
    if (this.queue.takeBack(0, true)) return;
    try {
      await this.client?.query('ROLLBACK');
    } catch {
      // the connection is gone, and the transaction with it
      const client = this.client;
      this.client = null;
      if (client && this.pg.open.delete(client)) client.release(true);
    }
  }

  /** A failed commit leaves the transaction open (aborted): it is rolled back before its connection goes back to the pool. */
  private async commitOrUndo(): Promise<void> {
    try {
      await this.commit();
    } catch (err) {
      if (this.client) dropIfSilent(this.client, err);
      await this.rollbackQuietly();
      throw err;
    }
  }

  /**
   * Numbers the events and commits in one statement. PostgreSQL answers COMMIT of a transaction that hit an error with
   * ROLLBACK, not an error: make it one.
   */
  private async commit(): Promise<void> {
    this.group.check();
    const client = this.client!;
    if (this.numbering.events.length > 0) await this.pg.prepareAlone(client, Numbering.commitStatements(this.channel));
    const { sql, tail, mark, pieces } = this.numbering.commitSql(this.channel, (text, args) => this.pg.preparedOn(client, text, args));
    // Nothing sent, nothing held: there is nothing to commit.
    if (sql === 'COMMIT' && this.queue.takeBack(0)) return this.numbering.committed(null);
    let results: pg.QueryResult | pg.QueryResult[];
    try {
      results = (await client.query(this.deferred() + sql)) as unknown as pg.QueryResult | pg.QueryResult[];
    } catch (err) {
      if ((err as { code?: unknown }).code === DIVISION_BY_ZERO) throw new Error('store: a write sent with the commit changed no row', { cause: err });
      const base = mark === null ? null : await this.numberedAnyway(client, mark, err);
      if (base === null) throw err;
      this.pg.flushedUpTo(base + this.numbering.events.length);
      return this.numbering.committed(base);
    }
    this.pg.ranOn(client, pieces);
    const all = Array.isArray(results) ? results : [results];
    const commit = all[all.length - 1 - tail];
    if (commit.command !== 'COMMIT') throw new Error('store: PostgreSQL rolled the transaction back instead of committing it');
    const numbered = sql === 'COMMIT' ? null : (all[all.length - 3 - tail].rows[0] as { base: number; numbered: number });
    const held = this.numbering.events.filter((e) => !e.dropped).length;
    if (numbered && Number(numbered.numbered) !== held) throw new Error(`store: wrote ${numbered.numbered} of ${held} events`);
    if (numbered) this.pg.flushedUpTo(Number(numbered.base) + this.numbering.events.length);
    this.numbering.committed(numbered ? Number(numbered.base) : null);
  }

  /**
   * The commit's round trip failed: if that was after its numbering commit (the flush or the notification failed), the
   * transaction is committed all the same. Then the flush is done again and, once it is, the commit counts as made (its
   * base returned; the notification is sent once more, and if that fails too the other gateways find the events by the
   * gap they leave). Null when it was not committed, or when whether it is on disk cannot be known (the connection is gone).
   */
  private async numberedAnyway(client: pg.PoolClient, mark: string, err: unknown): Promise<number | null> {
    if (dropIfSilent(client, err)) return null;
    let left: string | null;
    try {
      // An aborted transaction (the flush's, or the numbering one's) first.
      const r = (await client.query(`ROLLBACK; SELECT current_setting('askdock.numbered', true) AS v`)) as unknown as pg.QueryResult[];
      left = (r[r.length - 1].rows[0] as { v: string | null }).v;
    } catch {
      return null;
    }
    if (!left?.startsWith(`${mark} `)) return null;
    const { flush, notify } = Numbering.finishSql(this.channel);
    try {
      await client.query(flush);
    } catch {
      await client.query('ROLLBACK').catch(() => undefined);
      return null;
    }
    if (notify) await client.query(notify).catch(() => undefined);
    return Number(left.slice(mark.length + 1));
  }

  /**
   * Undoes a unit that threw. False when its savepoint does not exist (lost-group.ts `undoUnit`): the group is then kept
   * from committing (`LostGroup.lose`), so no unit of it is told it was kept.
   */
  private async undo(outer: boolean, savepoint: string, at: number): Promise<boolean> {
    if (outer) {
      await this.rollbackQuietly();
      this.ended();
      return true;
    }
    // Its SAVEPOINT never left: nothing of it reached the database. Else what waits after it goes, as does all it did.
    if (this.queue.takeBack(at, true)) return true;
    this.queue.dropWaiting();
    return undoUnit(this.client!, savepoint, () => (this.gone = true));
  }

  /** The open group can no longer be kept: lost (LostGroup), or its connection gone. */
  doomed(): boolean {
    return this.grouped && (this.gone || this.group.isLost());
  }

  async beginGroup(): Promise<void> {
    if (this.depth > 0 || this.grouped) throw new Error('store: beginGroup inside an open transaction');
    this.undoneGroup = false;
    this.grouped = true;
    try {
      await this.begin();
    } catch (err) {
      this.grouped = false;
      throw err;
    }
  }

  /**
   * Commits what the group holds. The group is over once this is called: a transaction asked for meanwhile is one of
   * its own and waits for the turn. One whose commit failed was rolled back here; the `rollbackGroup` the contract
   * asks for after it then has nothing left to do, and must not end the turn of whatever transaction came next.
   */
  async commitGroup(): Promise<void> {
    if (!this.grouped) throw new Error('store: commitGroup without beginGroup');
    this.grouped = false;
    if (!this.client) return;
    try {
      await this.commitOrUndo();
    } catch (err) {
      this.undoneGroup = true;
      throw err;
    } finally {
      this.ended();
    }
  }

  async rollbackGroup(): Promise<void> {
    if (this.undoneGroup) {
      this.undoneGroup = false;
      return;
    }
    if (!this.grouped) throw new Error('store: rollbackGroup without beginGroup');
    this.grouped = false;
    // A lost connection may already have ended it.
    if (this.client) await this.rollbackQuietly();
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
