/**
 * X4, G4: a ready `canUseTool` callback for the Claude Agent SDK. Permission requests are decided by the gateway's
 * approval policy (agent `sdk`; a person asked when it says ask), AskUserQuestion is asked in askdock as X3, both
 * answered with the SDK's own allow/deny results; the SDK's abort signal cancels the question (T5).
 *
 *   import { query } from '@anthropic-ai/claude-agent-sdk';
 *   const canUseTool = askdockCanUseTool({ url: 'ws://127.0.0.1:7420', token });
 *   for await (const m of query({ prompt, options: { canUseTool } })) { ... }
 */
import type { CanUseTool, PermissionResult } from '@anthropic-ai/claude-agent-sdk';
import { connect, type Agent } from './sdk.ts';
import { ownSessionParams } from './own-session.ts';
import { decideTool, type PermissionSuggestion } from './approvals.ts';

export type AskdockCanUseToolOptions = {
  url: string;
  token: string;
  /** Asks in this session; otherwise in a session of its own titled `Claude Agent SDK · <folder>` (T6). */
  sessionKey?: string;
  /** The folder the session is named after (default: the process's working directory). */
  cwd?: string;
  /** How long a person has to answer, in seconds (default 120, clamped to 30..3600). */
  timeoutSeconds?: number;
  /** An Agent already connected, instead of connecting on first use with url and token. */
  agent?: Agent;
};

export const CAN_USE_TOOL_CLIENT_NAME = 'Claude Agent SDK';
/** G11: the agent id the policy's `agents` globs see. */
export const CAN_USE_TOOL_AGENT = 'sdk';
const DEFAULT_TIMEOUT_SECONDS = 120;

/** A `canUseTool` that asks through askdock; with no answer (expired, cancelled) the tool is denied and the model is told why. */
export function askdockCanUseTool(options: AskdockCanUseToolOptions): CanUseTool & { close(): void } {
  let agentPromise: Promise<Agent> | null = options.agent ? Promise.resolve(options.agent) : null;
  let sessionPromise: Promise<string> | null = options.sessionKey ? Promise.resolve(options.sessionKey) : null;
  const agent = () => {
    agentPromise ??= connect({ url: options.url, token: options.token, name: 'askdock-can-use-tool', mode: 'agent' });
    agentPromise.catch(() => (agentPromise = null));
    return agentPromise;
  };
  const session = (a: Agent) => {
    sessionPromise ??= a.createSession(ownSessionParams({ clientName: CAN_USE_TOOL_CLIENT_NAME, cwd: options.cwd ?? process.cwd() })).then((s) => s.key);
    sessionPromise.catch(() => (sessionPromise = null));
    return sessionPromise;
  };
  const canUseTool = async (toolName: string, input: Record<string, unknown>, opts: Parameters<CanUseTool>[2]): Promise<PermissionResult> => {
    const a = await agent();
    const sessionKey = await session(a);
    const outcome = await decideTool(
      a,
      { toolName, toolInput: input, agent: CAN_USE_TOOL_AGENT, cwd: options.cwd ?? process.cwd(), ...(opts.suggestions?.length ? { suggestions: opts.suggestions as PermissionSuggestion[] } : {}) },
      { sessionKey, timeoutSeconds: options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS, signal: opts.signal },
    );
    const toolUseID = opts.toolUseID;
    if (!outcome.decision) return { behavior: 'deny', message: `No answer in askdock (${outcome.reason}); the tool was not run.`, toolUseID };
    const d = outcome.decision;
    if (d.behavior === 'deny') return { behavior: 'deny', message: d.message, toolUseID };
    // G5: "Always allow" is a grant the gateway keeps, not a rule written into the SDK's settings.
    return { behavior: 'allow', updatedInput: d.updatedInput ?? input, toolUseID };
  };
  return Object.assign(canUseTool, {
    close() {
      if (!options.agent) void agentPromise?.then((a) => a.close(), () => undefined);
    },
  });
}
