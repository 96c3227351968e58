/**
 * A rule's `tests` examples are tool requests written like rules: `Bash(git push origin main)`, `Read(./src/a.ts)`,
 * `WebFetch(https://example.com/x)`, `mcp__github__create_issue` or `mcp__db__query {"limit": 10}` (JSON input).
 * Example paths read like rule paths (`//abs`, `/from-project-root`, `~/home`, `./from-cwd`) in a notional project at
 * /project, which is also the working folder.
 */
import type { ApprovalFacts } from './types.ts';
import { PATH_TOOLS } from './grammar.ts';

export const EXAMPLE_ROOT = '/project';

export function exampleFacts(example: string): ApprovalFacts | string {
  const base = { cwd: EXAMPLE_ROOT, projectRoot: EXAMPLE_ROOT };
  const json = example.match(/^([A-Za-z][A-Za-z0-9_-]*)\s+(\{.*\})$/s);
  if (json) {
    try {
      const input = JSON.parse(json[2]);
      if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'the input after the tool name must be a JSON object';
      return { ...base, tool: json[1], input };
    } catch (err) {
      return `bad JSON input: ${(err as Error).message}`;
    }
  }
  const m = example.match(/^([A-Za-z][A-Za-z0-9_-]*)(?:\((.*)\))?$/s);
  if (!m) return 'write it as Tool(input), like Bash(git push origin main)';
  const [, tool, spec] = m;
  if (spec === undefined) return { ...base, tool, input: {} };
  if (tool === 'Bash') return { ...base, tool, input: { command: spec } };
  if ((PATH_TOOLS as readonly string[]).includes(tool)) return { ...base, tool, input: { file_path: spec.startsWith('//') ? spec.slice(1) : spec.startsWith('/') ? EXAMPLE_ROOT + spec : spec } };
  if (tool === 'WebFetch') return { ...base, tool, input: { url: spec.startsWith('domain:') ? `https://${spec.slice(7)}/` : spec } };
  return `${tool}(...) takes no input in parentheses; write ${tool} {"key": "value"} for a JSON input`;
}
