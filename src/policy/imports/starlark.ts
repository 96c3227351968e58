/**
 * The subset of Starlark that Codex `.rules` files use: top-level calls with keyword arguments whose values are
 * strings, lists and True/False/None. Anything else is an error naming its line, so nothing is skipped silently.
 */

export type Value = string | boolean | null | Value[];
export interface Call {
  name: string;
  line: number;
  kwargs: Map<string, Value>;
  positional: number;
}

type Tok = { k: 'id' | 'str' | 'punct'; v: string; line: number };

function tokenize(text: string): Tok[] {
  const toks: Tok[] = [];
  let line = 1;
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '\n') { line++; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r' || (c === '\\' && text[i + 1] === '\n')) { i++; continue; }
    if (c === '#') { while (i < text.length && text[i] !== '\n') i++; continue; }
    if ('()[],='.includes(c)) { toks.push({ k: 'punct', v: c, line }); i++; continue; }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i, i + 200));
    const raw = id && /^[rR]$/.test(id[0]) && (text[i + 1] === '"' || text[i + 1] === "'");
    if (id && !raw) { toks.push({ k: 'id', v: id[0], line }); i += id[0].length; continue; }
    if (c === '"' || c === "'" || raw) {
      const isRaw = Boolean(raw);
      if (isRaw) i++;
      const q = text[i];
      const triple = text.startsWith(q.repeat(3), i);
      const close = triple ? q.repeat(3) : q;
      i += close.length;
      let v = '';
      const startLine = line;
      for (;;) {
        if (i >= text.length || (!triple && text[i] === '\n')) throw new Error(`line ${startLine}: unterminated string`);
        if (text.startsWith(close, i)) { i += close.length; break; }
        if (text[i] === '\n') line++;
        if (text[i] === '\\' && !isRaw) {
          const e = text[i + 1];
          const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", '\n': '' };
          if (!(e in map)) throw new Error(`line ${line}: unsupported escape \\${e}`);
          v += map[e];
          i += 2;
          continue;
        }
        v += text[i++];
      }
      toks.push({ k: 'str', v, line: startLine });
      continue;
    }
    throw new Error(`line ${line}: unexpected "${c}" (only calls with string and list arguments are understood)`);
  }
  return toks;
}

export function parseStarlark(text: string): Call[] {
  const toks = tokenize(text);
  let p = 0;
  const peek = () => toks[p];
  const expect = (v: string) => {
    const t = toks[p];
    if (!t || t.v !== v || t.k === 'str') throw new Error(`line ${t?.line ?? 'end'}: expected "${v}"${t ? `, found "${t.v}"` : ''}`);
    p++;
  };
  const value = (): Value => {
    const t = toks[p++];
    if (!t) throw new Error('unexpected end of file');
    if (t.k === 'str') {
      let v = t.v;
      while (peek()?.k === 'str') v += toks[p++].v; // adjacent string literals concatenate
      return v;
    }
    if (t.k === 'id' && (t.v === 'True' || t.v === 'False')) return t.v === 'True';
    if (t.k === 'id' && t.v === 'None') return null;
    if (t.v === '[') {
      const list: Value[] = [];
      while (peek()?.v !== ']') {
        list.push(value());
        if (peek()?.v === ',') p++;
        else break;
      }
      expect(']');
      return list;
    }
    throw new Error(`line ${t.line}: "${t.v}" is not a string, a list, True, False or None`);
  };
  const calls: Call[] = [];
  while (p < toks.length) {
    const name = toks[p];
    if (name.k !== 'id') throw new Error(`line ${name.line}: expected a call like prefix_rule(...), found "${name.v}"`);
    p++;
    expect('(');
    const call: Call = { name: name.v, line: name.line, kwargs: new Map(), positional: 0 };
    while (peek() && peek().v !== ')') {
      if (peek().k === 'id' && toks[p + 1]?.v === '=') {
        const key = toks[p].v;
        if (call.kwargs.has(key)) throw new Error(`line ${toks[p].line}: ${key} given twice`);
        p += 2;
        call.kwargs.set(key, value());
      } else {
        value();
        call.positional++;
      }
      if (peek()?.v === ',') p++;
      else break;
    }
    expect(')');
    calls.push(call);
  }
  return calls;
}
