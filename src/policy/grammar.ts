/**
 * G1: Claude Code's permission-rule grammar: `Tool` or `Tool(specifier)`.
 * Bash takes a command pattern, the file tools a gitignore-style path, WebFetch `domain:HOST`; MCP tools
 * (`mcp__server`, `mcp__server__tool`, `mcp__server__*`) and other SDK tools take none (they use `args`).
 */

export type ParsedRule =
  | { kind: 'tool'; tool: string } // every use of the tool (or its family)
  | { kind: 'bash'; pattern: RegExp; spec: string }
  | { kind: 'path'; tool: string; spec: string }
  | { kind: 'domain'; host: string }
  | { kind: 'mcp'; name: RegExp };

/** Tools whose specifier is a path; `Edit` rules cover every tool that edits a file, `Read` every tool that reads one. */
export const PATH_TOOLS = ['Read', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Glob', 'Grep', 'LS'] as const;
const FAMILY: Record<string, readonly string[]> = {
  Edit: ['Edit', 'MultiEdit', 'Write', 'NotebookEdit'],
  Read: ['Read', 'Glob', 'Grep', 'LS', 'NotebookRead'],
};

const NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const MCP_NAME = /^mcp__[A-Za-z0-9_*-]+$/;
const HOST = /^(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/;

export type RuleParse = { ok: true; rule: ParsedRule } | { ok: false; why: string };

export function parseRule(text: unknown): RuleParse {
  if (typeof text !== 'string') return { ok: false, why: 'a rule must be a string like "Bash(npm run test *)"' };
  if (text.trim() !== text || text === '') return { ok: false, why: 'a rule must not be empty or start or end with spaces' };
  const open = text.indexOf('(');
  const name = open < 0 ? text : text.slice(0, open);
  if (name.startsWith('mcp__')) {
    if (open >= 0) return { ok: false, why: `MCP tools take no specifier in parentheses ("${name}"); use args to match their input` };
    if (!MCP_NAME.test(name) || name === 'mcp__') return { ok: false, why: `"${name}" is not an MCP tool name (mcp__server, mcp__server__tool or mcp__server__*)` };
    return { ok: true, rule: { kind: 'mcp', name: mcpPattern(name) } };
  }
  if (!NAME.test(name)) return { ok: false, why: `"${name}" is not a tool name (letters, digits, _ and -, like Bash or Read)` };
  if (open < 0) return { ok: true, rule: { kind: 'tool', tool: name } };
  if (!text.endsWith(')')) return { ok: false, why: `the specifier of ${name}(...) must end with ")"` };
  const spec = text.slice(open + 1, -1);
  if (spec === '') return { ok: false, why: `${name}() has an empty specifier; write ${name} alone for every use` };
  if (name === 'Bash') {
    if (spec === '*') return { ok: true, rule: { kind: 'tool', tool: 'Bash' } };
    return { ok: true, rule: { kind: 'bash', pattern: bashPattern(spec), spec } };
  }
  if ((PATH_TOOLS as readonly string[]).includes(name)) {
    if (spec === '*' || spec === '**') return { ok: true, rule: { kind: 'tool', tool: name } };
    if (spec.includes('\0')) return { ok: false, why: `${name}(...) holds a NUL character` };
    return { ok: true, rule: { kind: 'path', tool: name, spec } };
  }
  if (name === 'WebFetch') {
    if (spec === '*') return { ok: true, rule: { kind: 'tool', tool: name } };
    if (!spec.startsWith('domain:')) return { ok: false, why: `WebFetch takes "domain:HOST" (like WebFetch(domain:example.com)), not "${spec}"` };
    const host = spec.slice('domain:'.length).toLowerCase();
    if (!HOST.test(host)) return { ok: false, why: `"${host}" is not a host name (example.com or *.example.com)` };
    return { ok: true, rule: { kind: 'domain', host } };
  }
  return { ok: false, why: `${name} takes no specifier; only Bash, ${PATH_TOOLS.join(', ')} and WebFetch do (use args for MCP and SDK tools)` };
}

/** Why a rule is outside the grammar, or null. */
export function checkRuleText(rule: string): string | null {
  const parsed = parseRule(rule);
  return parsed.ok ? null : parsed.why;
}

/** Whether a rule about `ruleTool` (bare or with a path) covers a request for `tool`. */
export function toolCovers(ruleTool: string, tool: string): boolean {
  return ruleTool === tool || (FAMILY[ruleTool]?.includes(tool) ?? false);
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * `*` matches anything (also spaces); a trailing ` *` also matches the bare command (`ls *` matches `ls` and `ls -la`,
 * not `lsof`); the legacy suffix `:*` means ` *` (`npm run test:*` = `npm run test *`).
 */
export function bashPattern(spec: string): RegExp {
  let body = spec.endsWith(':*') ? `${spec.slice(0, -2)} *` : spec;
  let tail = '';
  if (body.endsWith(' *')) {
    body = body.slice(0, -2);
    tail = '(?: .*)?';
  }
  const re = body.split('*').map(escapeRegex).join('.*');
  return new RegExp(`^${re}${tail}$`, 's');
}

/** `mcp__server` covers every tool of that server; `*` is a wildcard within the name. */
function mcpPattern(name: string): RegExp {
  const re = name.split('*').map(escapeRegex).join('.*');
  const whole = name.includes('*') || name.slice('mcp__'.length).includes('__') ? re : `${re}(?:__.*)?`;
  return new RegExp(`^${whole}$`, 's');
}

/** `agents` globs: `*` any run of characters, `?` one. */
export function globRegex(glob: string): RegExp {
  const re = glob.split('').map((c) => (c === '*' ? '.*' : c === '?' ? '.' : escapeRegex(c))).join('');
  return new RegExp(`^${re}$`, 's');
}
