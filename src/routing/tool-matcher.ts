/**
 * E1: a route's `tool` is a G1 rule (`Bash(git push *)`, `mcp__github__*`). The policy module (src/policy, being
 * written alongside) owns that grammar; until it lands routing takes the two operations it needs through this
 * interface, with `simpleToolMatcher` below standing in: a tool name (exact or ending in `*`) and an optional
 * `(content)` that is exact or ends in ` *`/`*`.
 */
export interface ToolRequest { tool: string; input: Record<string, unknown> }

export interface ToolMatcher {
  /** Why the rule is outside the grammar, or null. */
  check(rule: string): string | null;
  matches(rule: string, request: ToolRequest): boolean;
}

const RULE = /^([A-Za-z_][\w-]*\*?)(?:\((.+)\))?$/s;

/** Which input field a tool's rule content is about (Claude Code's tools). */
const CONTENT_FIELD: Record<string, string> = { Bash: 'command', Read: 'file_path', Edit: 'file_path', Write: 'file_path', WebFetch: 'url' };

function like(pattern: string, text: string): boolean {
  return pattern.endsWith('*') ? text.startsWith(pattern.slice(0, -1).trimEnd()) : text === pattern;
}

export const simpleToolMatcher: ToolMatcher = {
  check(rule) {
    return RULE.test(rule) ? null : `must be a tool rule such as "Bash(git push *)" or "mcp__github__*", got "${rule}"`;
  },
  matches(rule, request) {
    const m = RULE.exec(rule);
    if (!m || !like(m[1], request.tool)) return false;
    if (m[2] === undefined) return true;
    const field = CONTENT_FIELD[request.tool];
    const content = field ? request.input[field] : undefined;
    return typeof content === 'string' && like(m[2], content);
  },
};

/**
 * E10: the request a tool rule names, for `askdock routing test --tool 'Bash(git push origin main)'`:
 * `{tool: "Bash", input: {command: "git push origin main"}}`.
 */
export function requestOfRule(text: string): ToolRequest | null {
  const m = RULE.exec(text);
  if (!m || m[1].endsWith('*')) return null;
  const field = CONTENT_FIELD[m[1]];
  return { tool: m[1], input: m[2] !== undefined && field ? { [field]: m[2] } : {} };
}
