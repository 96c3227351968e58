/**
 * `askdock hook`: a permission hook for Claude Code and Codex (X1-X3, G4). Reads one hook event on stdin; a tool
 * approval is decided by the gateway's approval policy (a person asked when it says ask), AskUserQuestion and
 * elicitations are asked in askdock; prints the decision JSON the agent documents. No answer in time, Skip, a cancel, no gateway or a bad event:
 * nothing on stdout and exit 0, so the agent asks in its own terminal; nothing is ever allowed by default.
 *
 * This module is the hook's entry (the compiled bin runs it bundled, scripts/cli-bundle.mjs): it reads the event with
 * nothing else loaded, so an event it does not ask about ends before the client, ws and the protocol's schemas load;
 * hook-ask.ts, which connects and asks, is imported only for an event that is asked.
 */
import { clientFlags, intFlag } from './args.ts';
import { ASK_USER_QUESTION_TOOL } from '../agent/tool-names.ts';
import type { PermissionSuggestion } from '../agent/approvals.ts';
import type { ElicitationRequest, RequestedSchema } from '../agent/elicitation.ts';
import { terminalText } from '../lib/terminal-text.ts';
import { HOOK_INPUT_MAX_DEPTH, nestedDeeperThan, readStdin } from './hook-input.ts';

const USAGE = 'usage: askdock hook [--timeout S] [--session KEY] [--url ws://127.0.0.1:7420] [--token T]   (reads one hook event on stdin)';
/** X1: the person at the terminal waits this long before the agent shows its own prompt. */
export const HOOK_DEFAULT_TIMEOUT_SECONDS = 120;

export type AgentKind = 'Claude Code' | 'Codex';

type HookEvent = Record<string, unknown>;

/** Codex's file-editing tool, judged by the policy as `Edit` of each file it patches. */
const CODEX_PATCH_TOOL = 'apply_patch';

/** What the hook was asked, read from the event; or why it cannot be read. */
export type ReadEvent =
  | { kind: 'tool'; event: 'PermissionRequest' | 'PreToolUse'; agent: AgentKind; sessionId: string; cwd: string; transcriptPath?: string; toolName: string; toolInput: Record<string, unknown>; suggestions?: PermissionSuggestion[] }
  | { kind: 'elicitation'; agent: AgentKind; sessionId: string; cwd: string; transcriptPath?: string; server: string; request: ElicitationRequest }
  | { kind: 'ignored'; why: string }
  | { kind: 'bad'; why: string };

const tooDeep = (field: string) => `${field} is nested deeper than ${HOOK_INPUT_MAX_DEPTH} levels, the most askdock hook reads`;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** X1: reads a Claude Code or Codex hook event; every missing field is named. */
export function readHookEvent(raw: string): ReadEvent {
  let e: HookEvent;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isObject(parsed)) return { kind: 'bad', why: 'the event on stdin is not a JSON object' };
    e = parsed;
  } catch (err) {
    return { kind: 'bad', why: `the event on stdin is not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  const name = e.hook_event_name;
  const missing: string[] = [];
  if (!text(name)) missing.push('hook_event_name');
  if (!text(e.session_id)) missing.push('session_id');
  if (!text(e.cwd)) missing.push('cwd');
  // Codex's events carry the turn they belong to; Claude Code's do not.
  const agent: AgentKind = e.turn_id !== undefined ? 'Codex' : 'Claude Code';
  const transcript = text(e.transcript_path) ? { transcriptPath: e.transcript_path as string } : {};
  if (name === 'PermissionRequest' || name === 'PreToolUse') {
    if (!text(e.tool_name)) missing.push('tool_name');
    if (!isObject(e.tool_input)) missing.push('tool_input (an object)');
    if (missing.length) return { kind: 'bad', why: `the ${name} event lacks ${missing.join(', ')}` };
    if (nestedDeeperThan(e.tool_input)) return { kind: 'bad', why: tooDeep('tool_input') };
    // Codex asks no PermissionRequest for its patches: its PreToolUse for apply_patch is judged as Edit (G4).
    const codexPatch = agent === 'Codex' && e.tool_name === CODEX_PATCH_TOOL;
    if (name === 'PreToolUse' && e.tool_name !== ASK_USER_QUESTION_TOOL && !codexPatch) return { kind: 'ignored', why: `PreToolUse for ${String(e.tool_name)} is left to the agent (only AskUserQuestion and Codex's apply_patch are asked there)` };
    const suggestions = Array.isArray(e.permission_suggestions) && e.permission_suggestions.length > 0 ? (e.permission_suggestions as PermissionSuggestion[]) : undefined;
    return { kind: 'tool', event: name, agent, sessionId: e.session_id as string, cwd: e.cwd as string, ...transcript, toolName: e.tool_name as string, toolInput: e.tool_input as Record<string, unknown>, ...(suggestions ? { suggestions } : {}) };
  }
  if (name === 'Elicitation') {
    if (!text(e.mcp_server_name)) missing.push('mcp_server_name');
    const mode = e.mode === 'url' ? 'url' : 'form';
    if (mode === 'url' && !text(e.url)) missing.push('url');
    const schema = e.requested_schema ?? e.requestedSchema;
    if (mode === 'form' && !(isObject(schema) && isObject(schema.properties))) missing.push('requested_schema (an object with properties)');
    if (missing.length) return { kind: 'bad', why: `the Elicitation event lacks ${missing.join(', ')}` };
    if (mode === 'form' && nestedDeeperThan(schema)) return { kind: 'bad', why: tooDeep('requested_schema') };
    const message = typeof e.message === 'string' ? e.message : '';
    const request: ElicitationRequest =
      mode === 'url' ? { mode: 'url', message, url: e.url as string, ...(text(e.elicitation_id) ? { elicitationId: e.elicitation_id as string } : {}) } : { mode: 'form', message, requestedSchema: schema as RequestedSchema };
    return { kind: 'elicitation', agent, sessionId: e.session_id as string, cwd: e.cwd as string, ...transcript, server: e.mcp_server_name as string, request };
  }
  if (missing.includes('hook_event_name')) return { kind: 'bad', why: `the event lacks ${missing.join(', ')}` };
  return { kind: 'ignored', why: `${String(name)} events are not asked (askdock hook takes PermissionRequest, PreToolUse with AskUserQuestion and Elicitation)` };
}

/** Lines name the event's tool, server and folder, which any command or MCP server sets: cleaned for the terminal. */
const say = (line: string) => process.stderr.write(`askdock hook: ${terminalText(line)}\n`);

export async function run(argv: string[]): Promise<number> {
  const values = clientFlags('hook', argv, USAGE, { timeout: { type: 'string' } }, process.stderr);
  // `--help` is 0; a bad flag (its message already on stderr) is 0 too: the hook's exit 2 would deny every tool call,
  // so a typo in the hook's settings leaves the agent its own prompt instead (X1: nothing is allowed by default).
  if (typeof values === 'number') return 0;
  let timeoutSeconds: number;
  try {
    timeoutSeconds = intFlag('--timeout', values.timeout as string | undefined, `a whole number of seconds (default ${HOOK_DEFAULT_TIMEOUT_SECONDS})`) ?? HOOK_DEFAULT_TIMEOUT_SECONDS;
  } catch (err) {
    // Even a bad setup leaves the agent its own prompt: exit 0, say why.
    say(err instanceof Error ? err.message : String(err));
    return 0;
  }
  const input = await readStdin();
  const event = input.ok ? readHookEvent(input.text) : ({ kind: 'bad', why: input.why } as const);
  if (event.kind === 'bad' || event.kind === 'ignored') {
    say(event.why);
    return 0;
  }
  await import('./hook-zod.ts');
  const { askFromHook } = await import('./hook-ask.ts');
  return askFromHook(values, event, timeoutSeconds, say);
}
