/**
 * G9: the request `askdock policy check -- TOOL-RULE` asks about, written as a rule names one: `Bash(git push origin
 * main)` is Bash with `{command: "git push origin main"}`, `Edit(src/a.ts)` Edit with `{file_path}`, `WebFetch(https://…)`
 * WebFetch with `{url}`, `mcp__github__create_issue` that tool with no input (or `--input JSON`).
 */

/** The input field each built-in tool's parenthesised part fills. */
const CONTENT_FIELD: Record<string, string> = {
  Bash: 'command',
  Read: 'file_path',
  Edit: 'file_path',
  Write: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
  Glob: 'pattern',
  Grep: 'pattern',
  WebFetch: 'url',
  WebSearch: 'query',
};

export type ToolCall = { tool: string; input: Record<string, unknown> };

/** Parses TOOL-RULE (and `--input JSON`); throws naming what is wrong. */
export function parseToolRule(text: string, inputJson?: string): ToolCall {
  const m = /^([A-Za-z][A-Za-z0-9_-]*)(?:\(([\s\S]*)\))?$/.exec(text.trim());
  if (!m) throw new Error(`TOOL-RULE: "${text}" is not a tool and its argument, e.g. 'Bash(git push origin main)', 'Edit(src/a.ts)' or 'mcp__github__create_issue'`);
  const [, tool, content] = m;
  let input: Record<string, unknown> = {};
  if (inputJson !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(inputJson);
    } catch (err) {
      throw new Error(`--input: not JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('--input: must be a JSON object (the tool\'s input)');
    input = parsed as Record<string, unknown>;
  }
  if (content !== undefined) {
    if (content.trim() === '') throw new Error(`TOOL-RULE: "${text}" has nothing between the parentheses`);
    const field = CONTENT_FIELD[tool];
    if (!field) throw new Error(`TOOL-RULE: ${tool} takes no argument in parentheses; give its input with --input JSON`);
    input = { ...input, [field]: content };
  }
  return { tool, input };
}
