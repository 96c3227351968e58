/**
 * A text's body as `quoteLiteral` writes it between the quotes, and whether the literal takes the ` E'…'` form (the text
 * holds a backslash). Escaping goes a character at a time, so the body of two texts one after the other is their bodies
 * one after the other: a text escaped once can be written into several literals (numbering.ts).
 */
export type Escaped = { readonly body: string; readonly backslash: boolean };

export function escapeText(text: string): Escaped {
  const backslash = text.includes('\\');
  return { body: (backslash ? text.replaceAll('\\', '\\\\') : text).replaceAll("'", "''"), backslash };
}

/** The literal of the texts escaped in `parts`, one after the other (the E form when any holds a backslash). */
export function literalOf(...parts: Escaped[]): string {
  let body = '';
  let backslash = false;
  for (const p of parts) {
    body += p.body;
    backslash ||= p.backslash;
  }
  return backslash ? ` E'${body}'` : `'${body}'`;
}

/**
 * `parts` one after the other with `between` between each two, as `Array.prototype.join` writes them, but by
 * concatenation: the engine keeps the parts where they are and copies them once, as the statement is written to the
 * connection. A join copies them there and then, and the texts strung here carry literals of a few KB (a commit's rows
 * with its events' payloads, an EXECUTE with a question's record, the writes a transaction put off).
 */
export function strung(parts: readonly string[], between: string): string {
  let text = parts.length > 0 ? parts[0] : '';
  for (let i = 1; i < parts.length; i++) text = text + between + parts[i];
  return text;
}

/**
 * `text` as a quoted SQL literal, written exactly as pg's `escapeLiteral` writes it (`'…'` with each quote doubled, and
 * ` E'…'` with each backslash doubled too where the text holds one), so a statement's text is what it was. pg's walks the
 * text a character at a time, concatenating: for the JSON a question round trip writes into its statements (about 7 KB:
 * records, events, the commit's notification) that was a measurable part of the gateway's CPU and garbage.
 */
export function quoteLiteral(text: string): string {
  if (text.includes('\\')) return ` E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  return `'${text.replaceAll("'", "''")}'`;
}
