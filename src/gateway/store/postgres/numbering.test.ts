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

describe('[D5] the numbering commit statement', () => {
  it("[D5/D2] each event's payload is escaped once, for its row and its notification both", () => {
    const numbering = new Numbering(new SeqRange());
    // Quotes and a backslash: the literals take the E form and double them.
    const payloads = Array.from({ length: 6 }, (_, i) => JSON.stringify({ n: i, text: `it's ${'x'.repeat(900)} a\\b` }));
    for (const [i, payload] of payloads.entries()) numbering.hold({ event: 'question.requested', payload, audience: '{"kind":"all"}', atMs: 1_000 + i, messageId: null });
    escaped.chars = 0;
    const { sql } = numbering.commitSql('askdock_events');
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
