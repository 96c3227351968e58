import type { ClientBase } from 'pg';
import { describe, expect, it, vi } from 'vitest';

/** The characters handed to the literal writers (literal.ts), whichever of them the commit statement is built with. */
const escaped = vi.hoisted(() => ({ chars: 0 }));
vi.mock('./literal.ts', async (importOriginal) => {
  const real = await importOriginal<Record<string, unknown>>();
  const counted: Record<string, unknown> = { ...real };
  for (const name of ['quoteLiteral', 'escapeText'])
    if (typeof real[name] === 'function') {
      const f = real[name] as (text: string) => unknown;
      counted[name] = (text: string) => {
        escaped.chars += text.length;
        return f(text);
      };
    }
  return counted;
});

const { Numbering, SeqRange } = await import('./numbering.ts');
const { PreparedStatements } = await import('./prepared.ts');

describe('[D5] the numbering commit statement', () => {
  it("[D5/D2] each event's payload is escaped once, for its row and its notification both", () => {
    const numbering = new Numbering(new SeqRange());
    // Quotes and a backslash: the literals take the E form and double them.
    const payloads = Array.from({ length: 6 }, (_, i) => JSON.stringify({ n: i, text: `it's ${'x'.repeat(900)} a\\b` }));
    for (const [i, payload] of payloads.entries()) numbering.hold({ event: 'question.requested', payload, audience: '{"kind":"all"}', atMs: 1_000 + i, messageId: null });
    escaped.chars = 0;
    const prepared = new PreparedStatements();
    const { sql } = numbering.commitSql('askdock_events', (text, args) => prepared.pieceOf({} as ClientBase, text, args));
    const payloadChars = payloads.reduce((n, p) => n + p.length, 0);
    // Every payload is in the statement, as its row's literal and in the notification's.
    for (const p of payloads) {
      const body = p.replaceAll('\\', '\\\\').replaceAll("'", "''");
      expect(sql.split(body).length - 1, 'a payload written twice').toBe(2);
    }
    // Was twice the payloads (each row's literal, then the notification's text escaped whole); the events' heads and
    // names are the rest.
    expect(escaped.chars).toBeGreaterThanOrEqual(payloadChars);
    expect(escaped.chars).toBeLessThan(payloadChars + 1_000);
  });
});

describe('[D5] one numbering statement for every commit', () => {
  it('[D5] commits of any size run the same statements, prepared once per connection apart from any commit, so PostgreSQL plans them once', async () => {
    const numbering = new Numbering(new SeqRange());
    const prepared = new PreparedStatements();
    const sent: string[] = [];
    const client = { query: async (text: string) => void sent.push(text) } as unknown as ClientBase;
    const texts: string[] = [];
    const commit = async (events: number, messageId: string | null) => {
      for (let i = 0; i < events; i++)
        numbering.hold({ event: i === 0 && messageId ? 'chat' : 'session.updated', payload: `{"n":${i},"t":"it's secret-${events}"}`, audience: '{"kind":"all"}', atMs: i, messageId: i === 0 ? messageId : null });
      if (messageId) numbering.message(messageId, numbering.events[0].seq);
      await prepared.prepareAlone(client, Numbering.commitStatements('askdock_events'));
      const { sql, pieces } = numbering.commitSql('askdock_events', (text, args) => {
        texts.push(text);
        return prepared.pieceOf(client, text, args);
      });
      prepared.ran(client, pieces);
      numbering.committed(100);
      return sql;
    };
    const commits = [await commit(1, null), await commit(3, 'm1'), await commit(7, null)];
    expect(new Set(texts).size).toBe(3);
    // Prepared once, in a query of its own that carries none of a commit's values (PostgreSQL keeps that query's text).
    expect(sent).toHaveLength(1);
    expect(sent[0].match(/PREPARE askdock_s\d+_\d+ AS /g)).toHaveLength(3);
    expect(sent[0]).not.toContain('secret-');
    for (const sql of commits) {
      expect(sql).not.toContain('PREPARE');
      expect(sql).toMatch(/^SET LOCAL plan_cache_mode TO force_generic_plan; EXECUTE askdock_s0_0\(/);
      expect(sql).toContain('EXECUTE askdock_s1_1;');
      expect(sql).toContain("EXECUTE askdock_s2_2('askdock_events')");
    }
    expect(commits[1]).toContain("ARRAY['m1']::text[]");
  });
});
