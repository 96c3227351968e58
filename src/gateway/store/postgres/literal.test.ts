import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { quoteLiteral } from './literal.ts';
import { Numbering, SeqRange } from './numbering.ts';
import { PreparedStatements } from './prepared.ts';
import { PutOffQueue } from './put-off-queue.ts';

describe('[D5] literals written into statements that share a round trip', () => {
  it('[D5] a text is quoted exactly as pg quotes it, so every statement the engine sends reads as before', () => {
    const client = new pg.Client();
    const texts = ["it's", "''", '\\', "a\\'b", 'E', ' E\'x\'', '{"a":"b\\"c"}', 'ünïcødé ✓ 🙂', '', '$1', 'line\nbreak\ttab', "'".repeat(5), '\\\\'.repeat(3)];
    for (const text of texts) expect(quoteLiteral(text), text).toBe(client.escapeLiteral(text));
  });
});

describe('[D5] statements carrying literals of a few KB are strung together, not joined (one copy, as they are sent)', () => {
  // A question's record, an event's payload: the JSON written into statements as literals.
  const record = JSON.stringify({ id: 'q1', text: `it's ${'x'.repeat(3_000)}` });
  /** Calls of Array.prototype.join that made a text of 1 KB or more while `run` ran. */
  const bigJoins = (run: () => void): number => {
    const join = Array.prototype.join;
    let calls = 0;
    Array.prototype.join = function (this: unknown[], sep?: string) {
      const text = join.call(this, sep);
      if (text.length >= 1_000) calls++;
      return text;
    };
    try {
      run();
    } finally {
      Array.prototype.join = join;
    }
    return calls;
  };

  it('[D5] an EXECUTE with its literals, the writes a transaction put off, a commit with its rows: as before, with no join', () => {
    const prepared = new PreparedStatements();
    const client = {} as pg.ClientBase;
    const sql = 'UPDATE questions SET record = $2 WHERE id = $1';
    prepared.piece(client, sql, ['q1', record]);
    prepared.ran(client, [{ text: '', prepares: { id: 0, name: 'askdock_s0_0' } }]);
    let execute = '';
    expect(bigJoins(() => (execute = prepared.piece(client, sql, ['q1', record])!.text))).toBe(0);
    expect(execute).toBe(`EXECUTE askdock_s0_0('q1', ${quoteLiteral(record)})`);

    const queue = new PutOffQueue();
    queue.add('BEGIN');
    queue.addWrite(execute);
    queue.add('SAVEPOINT askdock_unit');
    let handed = '';
    expect(bigJoins(() => (handed = queue.handOver()))).toBe(0);
    expect(handed).toBe(`BEGIN; ${execute}; SAVEPOINT askdock_unit; `);

    const numbering = new Numbering(new SeqRange());
    for (let i = 0; i < 3; i++) numbering.hold({ event: 'question.updated', payload: record, audience: '{"kind":"all"}', atMs: i, messageId: null });
    let commit = '';
    const onLane = new PreparedStatements();
    expect(bigJoins(() => (commit = numbering.commitSql(null, (text, args) => onLane.pieceOf(client, text, args)).sql))).toBe(0);
    const payload = quoteLiteral(record);
    expect(commit).toContain(`ARRAY[1, 2, 3]::int[], ARRAY['question.updated', 'question.updated', 'question.updated']::text[], ARRAY[${payload}, ${payload}, ${payload}]::text[]`);
  });
});
