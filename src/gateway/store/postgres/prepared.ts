import type pg from 'pg';
import { quoteLiteral, strung } from './literal.ts';

/** How many different statement texts get a prepared name; any past that (none the store sends) go unprepared. */
const MAX_PREPARED = 1000;

/** A statement for a query of several: its text, and the prepared name to remember on its connection once it ran. */
export type Piece = { text: string; prepares?: { id: number; name: string } };

/**
 * Prepared statements: PostgreSQL parses and plans each text once per connection, not at every use. A statement sent
 * on its own goes by the extended protocol under a name (`pg` prepares it on first use); one sharing a round trip with
 * others (pool.ts) is `EXECUTE name(literals)`, with its `PREPARE` in front the first time on that connection.
 * Prepared statements outlive a rolled-back transaction, so a name is remembered only once the query that made it
 * succeeded, and a connection never makes one name twice (a failed attempt's name is not used again).
 */
export class PreparedStatements {
  private readonly ids = new Map<string, number>();
  /** Per statement number: whether it can be prepared by SQL (a plain statement), and how many parameters it names. */
  private readonly shapes: { preparable: boolean; params: number }[] = [];
  private readonly held = new WeakMap<pg.ClientBase, { names: Map<number, string>; made: number }>();

  private id(sql: string): number | undefined {
    let id = this.ids.get(sql);
    if (id === undefined && this.ids.size < MAX_PREPARED) {
      id = this.ids.size;
      this.ids.set(sql, id);
      let params = 0;
      for (const m of sql.matchAll(/\$(\d+)/g)) params = Math.max(params, Number(m[1]));
      this.shapes[id] = { preparable: /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql), params };
    }
    return id;
  }

  /** For the extended protocol. */
  config(sql: string, params?: unknown[]): pg.QueryConfig {
    const id = this.id(sql);
    return id === undefined ? { text: sql, values: params } : { name: `askdock_q${id}`, text: sql, values: params };
  }

  /** For a query of several statements; null where a parameter cannot be written as a literal. */
  piece(client: pg.ClientBase, sql: string, params?: unknown[]): Piece | null {
    const literals = literalsOf(params);
    return literals === null ? null : this.pieceOf(client, sql, literals);
  }

  /**
   * For a query of several statements, its parameters given as SQL expressions (literals, or `ARRAY[...]` of them, the
   * caller's own): a statement whose text would change with its values (a commit's rows) keeps one text and one plan.
   */
  pieceOf(client: pg.ClientBase, sql: string, literals: string[]): Piece | null {
    const id = this.id(sql);
    // EXECUTE takes exactly the parameters the statement names.
    if (id === undefined || !this.shapes[id].preparable || this.shapes[id].params !== literals.length) {
      const text = inline(sql, literals);
      return text === null ? null : { text };
    }
    const execute = (name: string) => (literals.length ? `EXECUTE ${name}(${strung(literals, ', ')})` : `EXECUTE ${name}`);
    let state = this.held.get(client);
    if (!state) this.held.set(client, (state = { names: new Map(), made: 0 }));
    const name = state.names.get(id);
    if (name) return { text: execute(name) };
    const fresh = `askdock_s${id}_${state.made++}`;
    return { text: `PREPARE ${fresh} AS ${sql}; ${execute(fresh)}`, prepares: { id, name: fresh } };
  }

  /**
   * Prepares `sqls` on `client` where it has not yet, in a round trip of their own: PostgreSQL keeps the whole text of
   * the query a PREPARE came in for as long as the statement lives, so a statement whose first use carries big literals
   * (a commit's rows) is prepared apart from them.
   */
  async prepareAlone(client: pg.ClientBase, sqls: string[]): Promise<void> {
    let state = this.held.get(client);
    if (!state) this.held.set(client, (state = { names: new Map(), made: 0 }));
    const made: { id: number; name: string; sql: string }[] = [];
    for (const sql of sqls) {
      const id = this.id(sql);
      if (id === undefined || !this.shapes[id].preparable || state.names.has(id)) continue;
      made.push({ id, name: `askdock_s${id}_${state.made++}`, sql });
    }
    if (made.length === 0) return;
    await client.query(strung(made.map(({ name, sql }) => `PREPARE ${name} AS ${sql}`), '; '));
    for (const { id, name } of made) state.names.set(id, name);
  }

  /** The query carrying these pieces ran: their PREPAREs are held by the connection. */
  ran(client: pg.ClientBase, pieces: (Piece | null)[]): void {
    const state = this.held.get(client);
    if (!state) return;
    for (const p of pieces) if (p?.prepares) state.names.set(p.prepares.id, p.prepares.name);
  }
}

/** Each parameter as a quoted literal (an untyped literal takes its type from where it stands, as a parameter does). */
function literalsOf(params?: unknown[]): string[] | null {
  const literals: string[] = [];
  for (const v of params ?? []) {
    if (v === null || v === undefined) literals.push('NULL');
    else if (typeof v === 'string') literals.push(quoteLiteral(v));
    else if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'bigint' || typeof v === 'boolean') literals.push(`'${String(v)}'`);
    else return null;
  }
  return literals;
}

function inline(sql: string, literals: string[]): string | null {
  let missing = false;
  const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
    const literal = literals[Number(n) - 1];
    if (literal === undefined) missing = true;
    return literal ?? '';
  });
  return missing ? null : text;
}

/**
 * `sql` with its parameters written in as quoted literals, so it can share a round trip with other statements; null
 * where a parameter is not a plain value (those go as parameters, on their own).
 */
export function inlined(sql: string, params?: unknown[]): string | null {
  const literals = literalsOf(params);
  return literals === null ? null : inline(sql, literals);
}
