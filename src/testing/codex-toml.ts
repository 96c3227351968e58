/**
 * Reads the part of TOML that Codex's `config.toml` examples in docs/agents.md use: `[table]` headers, `key = value`
 * with a string, integer, boolean, array of strings or inline table of strings, and `#` comments. Anything else
 * throws, naming the line, so a docs example outside this subset fails its test instead of being misread.
 */
type Value = string | number | boolean | string[] | Record<string, string>;

const STRING = /^"((?:[^"\\]|\\.)*)"/;

function readValue(raw: string, line: number): Value {
  const v = raw.trim();
  const str = STRING.exec(v);
  if (str && str[0].length === v.length) return JSON.parse(str[0]) as string;
  if (/^-?\d+$/.test(v)) return Number(v);
  if (v === 'true' || v === 'false') return v === 'true';
  if (v.startsWith('[') && v.endsWith(']')) return JSON.parse(v) as string[];
  if (v.startsWith('{') && v.endsWith('}')) {
    const out: Record<string, string> = {};
    for (const part of v.slice(1, -1).split(',')) {
      const m = /^\s*([\w-]+)\s*=\s*(".*")\s*$/.exec(part);
      if (!m) throw new Error(`line ${line}: inline table entry "${part}" is not key = "string"`);
      out[m[1]] = JSON.parse(m[2]) as string;
    }
    return out;
  }
  throw new Error(`line ${line}: value "${v}" is outside the TOML this reads`);
}

/** Tables by their dotted name (`mcp_servers.shop-tools`), keys at the top under `""`. */
export function parseCodexToml(text: string): Record<string, Record<string, Value>> {
  const tables: Record<string, Record<string, Value>> = { '': {} };
  let current = tables[''];
  text.split('\n').forEach((rawLine, i) => {
    const line = rawLine.replace(/\s+#.*$/, '').replace(/^#.*$/, '').trim();
    if (!line) return;
    const header = /^\[([\w.-]+)\]$/.exec(line);
    if (header) {
      current = tables[header[1]] ??= {};
      return;
    }
    const kv = /^([\w-]+)\s*=\s*(.+)$/.exec(line);
    if (!kv) throw new Error(`line ${i + 1}: "${rawLine}" is not a table header or key = value`);
    current[kv[1]] = readValue(kv[2], i + 1);
  });
  return tables;
}
