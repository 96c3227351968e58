/**
 * G3: a quote-aware shell lexer. It finds the operators, words, redirections, here-documents and substitutions of a
 * command that the real parser (shell.ts, mvdan/sh) has accepted, because that parser's JavaScript build only
 * reports top-level statements. Whatever it cannot place is a hazard: the command then asks, never allows.
 */

export type Tok = { t: 'w'; raw: string } | { t: 'op'; op: string } | { t: 'redir'; op: string };

export interface LexContext {
  hazards: string[];
  /** Token lists of commands inside substitutions, judged like any other part. */
  nested: Tok[][];
}

const OPS = [';;&', '&>>', '<<<', '<<-', '&&', '||', '|&', ';;', ';&', '&>', '>>', '>|', '>&', '<<', '<&', '<>', '<(', '>(', '|', ';', '&', '(', ')', '<', '>', '\n'];
const REDIRS = new Set(['&>>', '<<<', '<<-', '&>', '>>', '>|', '>&', '<<', '<&', '<>', '<', '>']);
const BREAK = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

function hazard(ctx: LexContext, why: string): void {
  if (!ctx.hazards.includes(why)) ctx.hazards.push(why);
}

/** Lexes `src` from `start`; with `closer`, stops at the `)` that closes a `$(` or `<(` and returns its index. */
export function lex(src: string, ctx: LexContext, start = 0, closer = false): { toks: Tok[]; end: number } {
  const toks: Tok[] = [];
  const heredocs: { delim: string; strip: boolean; quoted: boolean }[] = [];
  let depth = 0;
  let i = start;
  const n = src.length;

  const sub = (from: number, what: string): number => {
    hazard(ctx, what);
    const inner = lex(src, ctx, from, true);
    ctx.nested.push(inner.toks);
    return inner.end + 1;
  };
  const backtick = (from: number): number => {
    let j = from;
    while (j < n && src[j] !== '`') j += src[j] === '\\' ? 2 : 1;
    hazard(ctx, 'command substitution (`…`)');
    ctx.nested.push(lex(src.slice(from, Math.min(j, n)).replace(/\\`/g, '`'), ctx).toks);
    return j + 1;
  };
  const arithmetic = (from: number): number => {
    let d = 2;
    let j = from;
    for (; j < n && d > 0; j++) {
      if (src[j] === '(') d++;
      else if (src[j] === ')') d--;
    }
    if (/\$\(|`/.test(src.slice(from, j))) hazard(ctx, 'command substitution ($(…))');
    return j;
  };
  const braceParam = (from: number): number => {
    let d = 1;
    let j = from;
    for (; j < n && d > 0; j++) {
      if (src[j] === '\\') j++;
      else if (src[j] === '{') d++;
      else if (src[j] === '}') d--;
    }
    if (/\$\(|`|<\(|>\(/.test(src.slice(from, j))) hazard(ctx, 'command substitution ($(…))');
    return j;
  };
  const dollar = (j: number): number => {
    if (src[j + 1] === '(' && src[j + 2] === '(') return arithmetic(j + 3);
    if (src[j + 1] === '(') return sub(j + 2, 'command substitution ($(…))');
    if (src[j + 1] === '{') return braceParam(j + 2);
    return j + 1;
  };
  const double = (from: number): number => {
    let j = from;
    while (j < n && src[j] !== '"') {
      if (src[j] === '\\') j += 2;
      else if (src[j] === '`') j = backtick(j + 1);
      else if (src[j] === '$') j = dollar(j);
      else j++;
    }
    if (j >= n) hazard(ctx, 'an unterminated quote');
    return j + 1;
  };
  const word = (from: number): number => {
    let j = from;
    while (j < n && !BREAK.has(src[j])) {
      const c = src[j];
      if (c === '\\') j += 2;
      else if (c === "'") {
        const k = src.indexOf("'", j + 1);
        if (k < 0) hazard(ctx, 'an unterminated quote');
        j = k < 0 ? n : k + 1;
      } else if (c === '$' && src[j + 1] === "'") {
        j += 2;
        while (j < n && src[j] !== "'") j += src[j] === '\\' ? 2 : 1;
        j++;
      } else if (c === '"') j = double(j + 1);
      else if (c === '`') j = backtick(j + 1);
      else if (c === '$') j = dollar(j);
      else j++;
    }
    return Math.min(j, n);
  };
  const bodies = (): void => {
    for (const h of heredocs.splice(0)) {
      let body = '';
      for (;;) {
        if (i >= n) break;
        const eol = src.indexOf('\n', i);
        const line = src.slice(i, eol < 0 ? n : eol);
        i = eol < 0 ? n : eol + 1;
        if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim) break;
        body += `${line}\n`;
      }
      if (!h.quoted && /\$\(|`/.test(body)) hazard(ctx, 'command substitution in a here-document');
    }
  };

  while (i < n) {
    const c = src[i];
    if (c === ' ' || c === '\t') { i++; continue; }
    if (c === '\\' && src[i + 1] === '\n') { i += 2; continue; }
    if (c === '#') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (op) {
      i += op.length;
      if (op === '<(' || op === '>(') {
        const from = i - 2;
        i = sub(i, 'process substitution (<(…))');
        toks.push({ t: 'w', raw: src.slice(from, i) });
      } else if (op === ')' && closer && depth === 0) {
        return { toks, end: i - 1 };
      } else if (REDIRS.has(op)) {
        toks.push({ t: 'redir', op });
        if (op === '<<' || op === '<<-') {
          while (src[i] === ' ' || src[i] === '\t') i++;
          const end = word(i);
          const raw = src.slice(i, end);
          heredocs.push({ delim: raw.replace(/['"\\]/g, ''), strip: op === '<<-', quoted: /['"\\]/.test(raw) });
          toks.push({ t: 'w', raw });
          i = end;
        }
      } else {
        if (op === '(') depth++;
        if (op === ')') depth--;
        toks.push({ t: 'op', op });
        if (op === '\n') bodies();
      }
      continue;
    }
    const end = word(i);
    const raw = src.slice(i, end);
    i = end;
    // A number right before < or > is the redirected file descriptor (2>&1), not an argument.
    if (/^\d+$/.test(raw) && (src[i] === '<' || src[i] === '>')) continue;
    toks.push({ t: 'w', raw });
  }
  if (closer) hazard(ctx, 'an unclosed substitution');
  return { toks, end: n };
}
