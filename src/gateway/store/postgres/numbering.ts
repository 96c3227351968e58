import { randomBytes, randomInt } from 'node:crypto';
import { FLUSH_SQL } from './pool.ts';
import { escapeText, literalOf, quoteLiteral, strung, type Escaped } from './literal.ts';
import type { Piece } from './prepared.ts';

/** What a commit's notification may carry of its events: PostgreSQL takes payloads below 8,000 bytes. */
const TOLD_BYTES = 7_800;
/** Room for a notification's seqs and brackets beside its events. */
const TOLD_OVERHEAD = 48;
/** Between two notifications' texts in the setting that keeps them (a record separator: JSON text never holds one raw). */
const TOLD_APART = 30;

/** Sends a commit's notifications (`askdock.told`, numbering.ts `notices`), in order, on channel $1. */
const NOTIFY_SQL = `SELECT pg_notify($1::text, t.text) FROM unnest(string_to_array(current_setting('askdock.told'), chr(${TOLD_APART}))) WITH ORDINALITY AS t(text, n) ORDER BY t.n`;

function notifySql(channel: string): string {
  return NOTIFY_SQL.replace('$1', quoteLiteral(channel));
}

/** `values` (SQL expressions of one type) as one array expression. */
function array(values: string[], type: string): string {
  return values.length ? `ARRAY[${strung(values, ', ')}]::${type}[]` : `ARRAY[]::${type}[]`;
}

/**
 * Numbers a commit's events (class Numbering): takes $1 numbers, renumbers the provisional seqs $2 (in order) and the
 * messages $9 that carry one, writes the events kept ($3 their place from 1, then their columns), and leaves on the
 * connection the notifications' texts (parts $10/$11: `base + last`, then ` base text` where the part tells its events)
 * and the mark $12 of this commit. One text for every commit: PostgreSQL plans it once per connection.
 */
const NUMBER_SQL = `WITH s AS (UPDATE askdock_seq SET value = value + $1::bigint WHERE id = 1 RETURNING value - $1::bigint AS base),
  m AS (SELECT t.tmp, s.base + t.ord AS seq FROM s, unnest($2::bigint[]) WITH ORDINALITY AS t(tmp, ord)),
  e AS (INSERT INTO events (seq, event, payload, audience, at_ms, message_id)
        SELECT s.base + v.ord, v.event, v.payload, v.audience, v.at_ms, v.message_id
        FROM s, unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[]) AS v(ord, event, payload, audience, at_ms, message_id)
        RETURNING 1),
  g AS (UPDATE messages SET seq = m.seq FROM m WHERE messages.id = ANY($9::text[]) AND messages.seq = m.tmp RETURNING 1)
  SELECT base,
    set_config('askdock.told', COALESCE((SELECT string_agg((s.base + p.last)::text || COALESCE(' ' || s.base::text || ' ' || p.text, ''), chr(${TOLD_APART}) ORDER BY p.n)
      FROM unnest($10::bigint[], $11::text[]) WITH ORDINALITY AS p(last, text, n)), ''), false),
    set_config('askdock.numbered', $12::text || ' ' || base::text, false), (SELECT COUNT(*) FROM e) AS numbered FROM s`;

/** What marks a numbering commit on its connection (`Numbering.commitSql`): this process's, then a count. */
const MARK = randomBytes(6).toString('hex');
let marks = 0;

/** 2^21 provisional numbers per gateway before they repeat (only numbers still uncommitted must differ). */
const SPAN = 2 ** 21;

/** An event of the open transaction, written as it commits. `dropped`: pruned inside the transaction (its seq a hole). */
type HeldEvent = { seq: number; event: string; payload: string; audience: string; atMs: number; messageId: string | null; dropped?: boolean };

/**
 * D2 and R2 with transactions of several gateways open at once: a transaction's events get a provisional `seq` while it
 * runs (a negative number of this gateway's own range, so it never meets another's or a real one), and their real seqs
 * only as it commits. The events are held here until then; the commit locks the one `askdock_seq` row, takes as many
 * numbers as it has events, writes them, renumbers its messages and commits, all in one statement sent once. Since the
 * lock is released after the commit is visible, seqs become visible in the order they were handed out (a reader never
 * skips one). A message's seq is its `chat` event's, renumbered with it.
 *
 * The lock is held only for that moment, not through the disk flush: PostgreSQL releases a transaction's row locks only
 * after its commit record is flushed, so a synchronous commit would make every numbering commit of every gateway wait
 * behind the flush of the one before. So that transaction commits without waiting for its flush (`synchronous_commit`
 * off), and in the same round trip a short transaction of its own writes one row (`askdock_flush`) and commits
 * synchronously: its flush takes the numbering commit's WAL (written before it) to disk too, and only then is the commit
 * acknowledged. The notification that tells the other gateways goes last, from a transaction of its own (NOTIFY takes a
 * database-wide lock until its transaction ends, which must not last a flush either), so what they hear is on disk.
 */
/** The provisional numbers of one gateway (all its transactions), and the real ones they got. */
export class SeqRange {
  private readonly base = randomInt(1, 2 ** 31) * SPAN;
  private counter = 0;
  private settled = new Map<number, number>();
  private settledBefore = new Map<number, number>();

  peek(): number {
    return -(this.base + (this.counter % SPAN));
  }

  take(): number {
    const seq = this.peek();
    this.counter++;
    return seq;
  }

  /** The real seq a provisional one got when its transaction committed (a real one unchanged). */
  settledSeq(seq: number): number {
    if (seq >= 0) return seq;
    return this.settled.get(seq) ?? this.settledBefore.get(seq) ?? seq;
  }

  /** Kept until 10,000 to 20,000 more were numbered: asked for just after its own transaction committed. */
  remember(pairs: [number, number][]): void {
    if (this.settled.size > 10_000) {
      this.settledBefore = this.settled;
      this.settled = new Map();
    }
    for (const [tmp, seq] of pairs) this.settled.set(tmp, seq);
  }
}

export class Numbering {
  constructor(private readonly range: SeqRange) {}

  /** This transaction's events, oldest first. */
  events: HeldEvent[] = [];
  /** This transaction's new messages with their provisional seqs. */
  messages: { id: string; seq: number }[] = [];
  /**
   * Seqs taken for messages of this transaction (`reserve`) whose `chat` event is not held yet. Taken, not peeked: the
   * writes between a message's numbering and its event's wait on the database, and meanwhile this gateway's other lanes
   * (and the next unit of this one) hold events of their own, each taking the next number of the shared range.
   */
  private reserved = new Set<number>();

  /** A provisional seq for a message written next in this transaction: its `chat` event, held later, carries it. */
  reserve(): number {
    const seq = this.range.take();
    this.reserved.add(seq);
    return seq;
  }

  hold(e: Omit<HeldEvent, 'seq'>): number {
    const seq = this.reservedFor(e.messageId) ?? this.range.take();
    this.events.push({ ...e, seq });
    return seq;
  }

  /** The seq reserved for a message of this transaction, given up to its first `chat` event (a later one numbers anew). */
  private reservedFor(messageId: string | null): number | undefined {
    if (messageId === null || this.reserved.size === 0) return undefined;
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i];
      if (m.id === messageId) return this.reserved.delete(m.seq) ? m.seq : undefined;
    }
    return undefined;
  }

  /** Prunes this transaction's events older than `beforeMs`; how many it dropped. */
  drop(beforeMs: number): number {
    let dropped = 0;
    for (const e of this.events)
      if (!e.dropped && e.atMs < beforeMs) {
        e.dropped = true;
        dropped++;
      }
    return dropped;
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
    this.reserved.clear();
  }

  /**
   * The statements that number this transaction's events and commit it (see the class), and how many results follow the
   * COMMIT's: the results of the numbering statement and of COMMIT are at `-3 - tail` and `-1 - tail` from the end. The
   * statements are prepared (`prepare`: on the transaction's connection), the numbering one with its rows given as
   * arrays, so PostgreSQL plans them once per connection rather than at every commit; `pieces` are to be told `ran` once
   * the query ran.
   */
  commitSql(channel: string | null, prepare: (sql: string, args: string[]) => Piece | null): { sql: string; tail: number; mark: string | null; pieces: Piece[] } {
    if (this.events.length === 0) return { sql: 'COMMIT', tail: 0, mark: null, pieces: [] };
    // Left on the connection by the numbering commit (a setting made in a transaction is undone with it): whether that
    // commit went through can be asked when what follows it in the round trip failed.
    const mark = `${MARK}.${++marks}`;
    const lit = (v: string | null) => (v === null ? 'NULL' : quoteLiteral(v));
    // Each payload escaped once: written into its row's literal and into the notification's (`notices`).
    const payloads = this.events.map((e) => (e.dropped ? null : escapeText(e.payload)));
    const kept = this.events.flatMap((e, i) => (e.dropped ? [] : [{ e, i }]));
    const told = channel ? this.notices(payloads) : { lasts: [], texts: [] };
    const args = [
      String(this.events.length),
      array(this.events.map((e) => String(e.seq)), 'bigint'),
      array(kept.map(({ i }) => String(i + 1)), 'int'),
      array(kept.map(({ e }) => lit(e.event)), 'text'),
      array(kept.map(({ i }) => literalOf(payloads[i]!)), 'text'),
      array(kept.map(({ e }) => lit(e.audience)), 'text'),
      array(kept.map(({ e }) => String(e.atMs)), 'bigint'),
      array(kept.map(({ e }) => lit(e.messageId)), 'text'),
      array(this.messages.map((m) => quoteLiteral(m.id)), 'text'),
      array(told.lasts, 'bigint'),
      array(told.texts, 'text'),
      quoteLiteral(mark),
    ];
    const numbered = prepare(NUMBER_SQL, args);
    const flush = prepare(FLUSH_SQL, []);
    const notify = channel ? prepare(NOTIFY_SQL, [quoteLiteral(channel)]) : null;
    if (!numbered || !flush || (channel && !notify)) throw new Error('store: the commit statements could not be written');
    // A statement's first use on a connection has its PREPARE's result in front of its own.
    const made = (p: Piece | null) => (p?.prepares ? 1 : 0);
    // PostgreSQL could go on planning it for each commit's values (custom plans); its generic plan serves every commit.
    const sql = `SET LOCAL plan_cache_mode TO force_generic_plan; ${numbered.text};
      SET LOCAL synchronous_commit TO off; COMMIT; BEGIN; ${flush.text}; COMMIT${notify ? `; ${notify.text}` : ''}`;
    return { sql, tail: 3 + made(flush) + (notify ? 1 + made(notify) : 0), mark, pieces: notify ? [numbered, flush, notify] : [numbered, flush] };
  }

  /** The statements `commitSql` prepares, to be prepared on a connection before its first commit (`prepareAlone`). */
  static commitStatements(channel: string | null): string[] {
    return channel ? [NUMBER_SQL, FLUSH_SQL, NOTIFY_SQL] : [NUMBER_SQL, FLUSH_SQL];
  }

  /** What follows the numbering commit when the round trip that carried it failed after it: the flush, then the notification. */
  static finishSql(channel: string | null): { flush: string; notify: string | null } {
    return {
      flush: `BEGIN; ${FLUSH_SQL}; COMMIT`,
      notify: channel ? notifySql(channel) : null,
    };
  }

  /**
   * The events as the commit's notifications tell them, so other gateways fan them out without reading them back
   * (cluster.ts `toldEvents`). Each notification tells a run of the events in a line of JSON, per event `[i, event,
   * audience, atMs, m, length]`, its seq `base + i`, `m` (when its message is one of this transaction's) the i of that
   * message's `chat` event, whose seq the message takes, and `length` its payload's; then the payloads' JSON as stored,
   * one after another (a gateway that hears a payload frames it as the text it is, without serialising it again). A
   * notification carries at most TOLD_BYTES, so a commit too large for one is told in several, in seq order, each with
   * the last seq it tells; an event too large for one alone is told by its seq only (and read). A part's text is given
   * as its line and the events whose payloads follow it (`payloads` has them escaped, for `notices`).
   */
  private told(): { last: number; text: { line: string; events: number[] } | null }[] {
    const ord = new Map(this.events.map((e, i) => [e.seq, i + 1]));
    const messageOrd = new Map(this.messages.map((m) => [m.id, ord.get(m.seq)]));
    const parts: { last: number; text: { line: string; events: number[] } | null }[] = [];
    let heads: string[] = [];
    let events: number[] = [];
    let bytes = 0;
    const close = (last: number) => {
      if (heads.length > 0) parts.push({ last, text: { line: `[${heads.join(',')}]\n`, events } });
      heads = [];
      events = [];
      bytes = 0;
    };
    let last = 0;
    for (const [i, e] of this.events.entries()) {
      if (e.dropped) continue;
      const m = e.messageId === null ? null : (messageOrd.get(e.messageId) ?? null);
      const head = `[${i + 1},${JSON.stringify(e.event)},${e.audience},${e.atMs},${m},${e.payload.length}]`;
      const size = Buffer.byteLength(head) + 1 + Buffer.byteLength(e.payload);
      if (bytes + size + TOLD_OVERHEAD > TOLD_BYTES) close(last);
      if (size + TOLD_OVERHEAD > TOLD_BYTES) parts.push({ last: i + 1, text: null });
      else {
        heads.push(head);
        events.push(i);
        bytes += size;
      }
      last = i + 1;
    }
    close(last);
    return parts;
  }

  /**
   * The notifications' parts for the numbering statement (NUMBER_SQL): each part's last event (from 1, its seq `base` +
   * that) and the literal of its text (NULL for a part that tells its seq only); `payloads` the events' payloads escaped
   * (the rows' literals have them too), so each part's literal is its line's and theirs.
   */
  private notices(payloads: (Escaped | null)[]): { lasts: string[]; texts: string[] } {
    const parts = this.told();
    if (parts.length === 0) return { lasts: [String(this.events.length)], texts: ['NULL'] };
    const literal = ({ line, events }: { line: string; events: number[] }) => literalOf(escapeText(line), ...events.map((i) => payloads[i]!));
    return { lasts: parts.map((p) => String(p.last)), texts: parts.map((p) => (p.text === null ? 'NULL' : literal(p.text))) };
  }

  /** After the commit: `base` + i is the real seq of the i-th event (from 1). */
  committed(base: number | null): void {
    if (base !== null) this.range.remember(this.events.map((e, i) => [e.seq, base + i + 1]));
    this.clear();
  }
}
