/**
 * `askdock hook`: a permission hook for Claude Code and Codex (X1-X3, G4). Reads one hook event on stdin; a tool
 * approval is decided by the gateway's approval policy (a person asked when it says ask), AskUserQuestion and
 * elicitations are asked in askdock; prints the decision JSON the agent documents. No answer in time, Skip, a cancel, no gateway or a bad event:
 * nothing on stdout and exit 0, so the agent asks in its own terminal; nothing is ever allowed by default.
 */
import { createHash } from 'node:crypto';
import { clientFlags, intFlag } from './args.ts';
import { isRefusedToken, refusedTokenMessage, resolveEndpoint } from './endpoint.ts';
import { connect, type Agent } from '../agent/sdk.ts';
import { clampTimeoutSeconds } from '../agent/ask-user.ts';
import { ownSessionTitle } from '../agent/own-session.ts';
import { ASK_USER_QUESTION_TOOL, decideTool, type PermissionSuggestion, type ToolDecision, type ToolRequest } from '../agent/approvals.ts';
import { codexApprovals } from '../agent/approval-facts.ts';
import { askElicitation, type ElicitationRequest, type RequestedSchema } from '../agent/elicitation.ts';
import { questionPageUrl } from '../client/client.ts';
import { terminalText } from '../lib/terminal-text.ts';
import { watchCaller } from './caller-gone.ts';
import { runLabel } from './hook-title.ts';
import { HOOK_INPUT_MAX_DEPTH, nestedDeeperThan, readBounded } from './hook-input.ts';

const USAGE = 'usage: askdock hook [--timeout S] [--session KEY] [--url ws://127.0.0.1:7420] [--token T]   (reads one hook event on stdin)';
/** X1: the person at the terminal waits this long before the agent shows its own prompt. */
export const HOOK_DEFAULT_TIMEOUT_SECONDS = 120;

export type AgentKind = 'Claude Code' | 'Codex';
/** E1: what asks, as a route's `match.source` names it. */
const HOOK_SOURCE: Record<AgentKind, string> = { 'Claude Code': 'hook:claude-code', Codex: 'hook:codex' };

type HookEvent = Record<string, unknown>;

/** Codex's file-editing tool, judged by the policy as `Edit` of each file it patches. */
const CODEX_PATCH_TOOL = 'apply_patch';

/** G4/G11: the tool request of a hook event, with what the policy judges for the agent that sent it. */
export function hookToolRequest(event: Extract<ReadEvent, { kind: 'tool' }>): ToolRequest {
  const base = { toolName: event.toolName, toolInput: event.toolInput, cwd: event.cwd };
  if (event.agent === 'Codex') return { ...base, agent: 'codex', approvals: codexApprovals(event.toolName, event.toolInput, { cwd: event.cwd }) };
  return { ...base, agent: 'claude-code', ...(event.suggestions ? { suggestions: event.suggestions } : {}) };
}

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

/** X1: the decision JSON the event's hook documents. */
export function decisionOutput(event: 'PermissionRequest' | 'PreToolUse', agent: AgentKind, d: ToolDecision): unknown {
  if (event === 'PreToolUse') {
    return d.behavior === 'allow'
      ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', ...(d.updatedInput ? { updatedInput: d.updatedInput } : {}) } }
      : { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: d.message } };
  }
  // Codex's PermissionRequest refuses updatedInput and updatedPermissions (it fails closed on them).
  const decision = agent === 'Codex' && d.behavior === 'allow' ? { behavior: 'allow' } : d;
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
}

/**
 * X1: one askdock session per agent session, titled `Claude Code · <folder> · <its first prompt>` (or the time it
 * first asked), so the runs of one folder are told apart; the title is the one its first question set.
 */
export async function hookSession(agent: Agent, kind: AgentKind, sessionId: string, cwd: string, transcriptPath?: string): Promise<string> {
  const digest = createHash('sha256').update(JSON.stringify([kind, sessionId])).digest('hex');
  const title = `${ownSessionTitle({ clientName: kind, cwd })} · ${runLabel(transcriptPath)}`.slice(0, 200);
  const session = await agent.createSession({ title, idempotencyKey: `hook:${digest.slice(0, 40)}` });
  return session.key;
}

/** Lines name the event's tool, server and folder, which any command or MCP server sets: cleaned for the terminal. */
const say = (line: string) => process.stderr.write(`askdock hook: ${terminalText(line)}\n`);

/** L4: the receipt of each decided question, in the hook's log (its stderr), for `askdock audit verify --receipt`. */
const logReceipt = (id: string, receipt: string) => say(`receipt of ${id}: ${receipt}`);

export async function run(argv: string[]): Promise<number> {
  const values = clientFlags('hook', argv, USAGE, { timeout: { type: 'string' } }, process.stderr);
  if (typeof values === 'number') return values;
  let timeoutSeconds: number;
  let endpoint;
  try {
    timeoutSeconds = intFlag('--timeout', values.timeout as string | undefined, `a whole number of seconds (default ${HOOK_DEFAULT_TIMEOUT_SECONDS})`) ?? HOOK_DEFAULT_TIMEOUT_SECONDS;
    endpoint = resolveEndpoint(values);
  } catch (err) {
    // Even a bad setup leaves the agent its own prompt: exit 0, say why.
    say(err instanceof Error ? err.message : String(err));
    return 0;
  }
  const input = await readBounded(process.stdin);
  const event = input.ok ? readHookEvent(input.text) : ({ kind: 'bad', why: input.why } as const);
  if (event.kind === 'bad' || event.kind === 'ignored') {
    say(event.why);
    return 0;
  }
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('the hook was stopped'));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  // X6: a wrapper killed without passing the signal on (npx, sh -c) leaves nobody to read the answer: withdraw it.
  const caller = watchCaller((why) => controller.abort(new Error(`the hook was stopped: ${why}`)));
  let agent: Agent | undefined;
  // X1: the person at the terminal waits --timeout for the agent's own prompt, whatever waits first (another approval
  // of the same session ahead of this one, several prompts in a row): one deadline for all of it.
  const deadline = setTimeout(() => controller.abort(new Error(`no answer within ${clampTimeoutSeconds(timeoutSeconds)} s`)), clampTimeoutSeconds(timeoutSeconds) * 1000);
  try {
    agent = await connect({ ...endpoint, name: 'askdock-hook', mode: 'cli', connectTimeoutMs: 10_000 });
    if (controller.signal.aborted) return 0;
    const sessionKey = values.session ?? (await hookSession(agent, event.agent, event.sessionId, event.cwd, event.transcriptPath));
    const opts = { sessionKey, timeoutSeconds, askSource: HOOK_SOURCE[event.agent], signal: controller.signal, onAsked: (id: string) => say(`waiting for an answer; answer it at ${questionPageUrl(endpoint.url, id)}`), onReceipt: logReceipt };
    if (event.kind === 'tool') {
      const outcome = await decideTool(agent, hookToolRequest(event), opts);
      if (!outcome.decision) {
        say(`no answer (${outcome.reason}); the agent asks in its own terminal`);
        return 0;
      }
      process.stdout.write(JSON.stringify(decisionOutput(event.event, event.agent, outcome.decision)) + '\n');
      return 0;
    }
    const outcome = await askElicitation(agent, event.request, { ...opts, source: event.server });
    if (outcome.action === 'accept' || (outcome.action === 'decline' && !outcome.skipped)) {
      const out = { hookEventName: 'Elicitation', action: outcome.action, ...(outcome.action === 'accept' && outcome.content ? { content: outcome.content } : {}) };
      process.stdout.write(JSON.stringify({ hookSpecificOutput: out }) + '\n');
      return 0;
    }
    say(`no answer (${outcome.action === 'decline' ? 'skipped' : outcome.reason}); the agent asks in its own terminal`);
    return 0;
  } catch (err) {
    if (controller.signal.aborted) say(`${controller.signal.reason instanceof Error ? controller.signal.reason.message : 'stopped'}; the question was withdrawn, the agent asks in its own terminal`);
    else if (isRefusedToken(err)) say(`${refusedTokenMessage(values, endpoint.url)}; the agent asks in its own terminal`);
    else say(`${err instanceof Error ? err.message : String(err)}; the agent asks in its own terminal`);
    return 0;
  } finally {
    clearTimeout(deadline);
    caller.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    agent?.close();
  }
}
