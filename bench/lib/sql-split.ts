/** One statement with its parameters, as a client that binds parameters (and pipelines statements) would send it. */
export type Bound = { sql: string; params: (string | null)[]; prepared: boolean };

/** Splits a query of several statements at its top-level semicolons (never inside a quoted literal or a `$f$` body). */
export function splitStatements(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") quoted = !quoted;
    else if (c === ';' && !quoted) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last) out.push(last);
  return out.filter((s) => s.length > 0);
}

/** `'it''s'`, `E'a\\b'` (pg's escapeLiteral writes a literal holding a backslash so) or NULL, each at `at`: its value and where it ends. */
function literalAt(text: string, at: number): { value: string | null; end: number } {
  let i = at;
  while (text[i] === ' ') i++;
  if (text.startsWith('NULL', i)) return { value: null, end: i + 4 };
  const escaped = text[i] === 'E';
  if (escaped) i++;
  if (text[i] !== "'") throw new Error(`not a literal at ${i}: ${text.slice(i, i + 20)}`);
  let value = '';
  for (i++; i < text.length; i++) {
    const c = text[i];
    if (c === "'") {
      if (text[i + 1] !== "'") return { value, end: i + 1 };
      value += "'";
      i++;
    } else if (c === '\\' && escaped) value += text[++i];
    else value += c;
  }
  throw new Error('a literal without its end');
}

/**
 * A statement as bound parameters: `EXECUTE name('a', NULL)` as the prepared statement's text (from `prepares`) with
 * those values, prepared by the client; any other statement as it is, unprepared (its text differs every time).
 */
export function bind(statement: string, prepares: Map<string, string>): Bound {
  const m = /^EXECUTE (askdock_s\d+)(\()?/.exec(statement);
  if (!m) return { sql: statement, params: [], prepared: false };
  const sql = prepares.get(m[1]);
  if (sql === undefined) throw new Error(`no PREPARE recorded for ${m[1]}`);
  const params: (string | null)[] = [];
  if (m[2]) {
    let at = m[0].length;
    for (;;) {
      const { value, end } = literalAt(statement, at);
      params.push(value);
      at = end;
      while (statement[at] === ' ') at++;
      if (statement[at] === ')') break;
      if (statement[at] !== ',') throw new Error(`unexpected ${statement.slice(at, at + 20)} after a parameter`);
      at++;
    }
  }
  return { sql, params, prepared: true };
}
