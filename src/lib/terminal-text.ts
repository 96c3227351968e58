/**
 * What reaches a terminal: every string a gateway, an agent, a person or a tool supplied passes here before the TUI
 * draws it or a command prints it, so no captured escape sequence can set the window title, write the clipboard, hide
 * a link, recolour the screen or redraw a prompt as something else. Pure: no I/O.
 *
 * - C0 and C1 controls, DEL and ESC (so every CSI, OSC and DCS sequence) show as U+FFFD; the rest of a sequence stays as
 *   plain visible text (`\u001b]0;title\u0007` shows as `�]0;title�`).
 * - Bidi overrides, embeddings, isolates and marks, and the Unicode line and paragraph separators, show as their
 *   escape (`\u202E`), so text cannot read backwards or break a line the layout did not plan.
 * - `\n` stays unless the place is one line (then `↵`); `\r\n` is a line break; `\t` stays or becomes spaces.
 */

/** The controls a terminal acts on: C0 but tab and line feed, DEL, C1. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** Bidi formatting (ALM, LRM, RLM, LRE..RLO, LRI..PDI) and the line/paragraph separators. */
const INVISIBLE = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE = new RegExp(`${CONTROL.source}|${INVISIBLE.source}|[\\t\\n]`, 'g');

export type TerminalTextOptions = {
  /** False for a place one line high: a line break shows as `↵`. */
  multiline?: boolean;
  /** Spaces a tab becomes (Ink lays text out by width, and a tab has none); unset keeps the tab. */
  tabSize?: number;
};

/** The visible escape of one invisible character: `\u202E`. */
const escapeOf = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** `text` as a terminal may show it: nothing in it is acted on, and what was hidden in it is visible. */
export function terminalText(text: string, { multiline = true, tabSize }: TerminalTextOptions = {}): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, (ch) => {
    if (ch === '\n') return multiline ? ch : '↵';
    if (ch === '\t') return tabSize === undefined ? ch : ' '.repeat(tabSize);
    return CONTROL.test(ch) ? '\uFFFD' : escapeOf(ch);
  });
}

/** A one-line field (a title, a header, an option label): line breaks as `↵`, a tab as one space. */
export function terminalLine(text: string): string {
  return terminalText(text, { multiline: false, tabSize: 1 });
}

/**
 * JSON for a terminal or a pipe: the same value, with DEL, C1 and the invisible characters written as `\uXXXX`
 * escapes (JSON.stringify already escapes C0, ESC among them, but prints these raw); `indent` spaces a level, else one line.
 */
export function terminalJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(new RegExp(`[\\u007f-\\u009f]|${INVISIBLE.source}`, 'g'), escapeOf);
}
