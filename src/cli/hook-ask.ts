/**
 * X1: what `askdock hook` does once the event on stdin is one it asks: connect to the gateway, open the agent
 * session's askdock session, decide the tool or ask the elicitation, print the decision the agent documents. Loaded by
 * hook.ts only then: the client, ws and the protocol's schemas load here, not for an event that is not asked.
 */
import { createHash } from 'node:crypto';
import type { ClientFlags } from './args.ts';
import { isRefusedToken, refusedTokenMessage, resolveEndpoint, type Endpoint } from './endpoint.ts';
import { connect, type Agent } from '../agent/sdk.ts';
import { clampTimeoutSeconds } from '../agent/ask-user-result.ts';
import { ownSessionTitle } from '../agent/own-session.ts';
import { decideTool, type ToolDecision, type ToolRequest } from '../agent/approvals.ts';
import { codexApprovals } from '../agent/approval-facts.ts';
import { askElicitation } from '../agent/elicitation.ts';
import { questionPageUrl } from '../client/client.ts';
import { watchCaller } from './caller-gone.ts';
import { runLabel } from './hook-title.ts';
import type { AgentKind, ReadEvent } from './hook.ts';

/** E1: what asks, as a route's `match.source` names it. */
const HOOK_SOURCE: Record<AgentKind, string> = { 'Claude Code': 'hook:claude-code', Codex: 'hook:codex' };

type AskedEvent = Extract<ReadEvent, { kind: 'tool' | 'elicitation' }>;

/** G4/G11: the tool request of a hook event, with what the policy judges for the agent that sent it. */
export function hookToolRequest(event: Extract<ReadEvent, { kind: 'tool' }>): ToolRequest {
  const base = { toolName: event.toolName, toolInput: event.toolInput, cwd: event.cwd };
  if (event.agent === 'Codex') return { ...base, agent: 'codex', approvals: codexApprovals(event.toolName, event.toolInput, { cwd: event.cwd }) };
  return { ...base, agent: 'claude-code', ...(event.suggestions ? { suggestions: event.suggestions } : {}) };
}

/**
 * X1: the decision JSON the event's hook documents. E8: an Allow people gave says who ("approved by Ana") where the
 * output has a text the agent reads: PreToolUse's additionalContext (PermissionRequest's allow has none).
 */
export function decisionOutput(event: 'PermissionRequest' | 'PreToolUse', agent: AgentKind, d: ToolDecision, approvedBy?: string): unknown {
  if (event === 'PreToolUse') {
    return d.behavior === 'allow'
      ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', ...(d.updatedInput ? { updatedInput: d.updatedInput } : {}), ...(approvedBy ? { additionalContext: approvedBy } : {}) } }
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

/** Connects, asks and prints the decision; every way it ends is exit 0 (no answer: the agent asks in its own terminal). */
export async function askFromHook(values: ClientFlags, event: AskedEvent, timeoutSeconds: number, say: (line: string) => void): Promise<number> {
  let endpoint: Endpoint;
  try {
    endpoint = resolveEndpoint(values);
  } catch (err) {
    // Even a bad setup leaves the agent its own prompt: exit 0, say why.
    say(err instanceof Error ? err.message : String(err));
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
    const opts = { sessionKey, timeoutSeconds, askSource: HOOK_SOURCE[event.agent], signal: controller.signal, onAsked: (id: string) => say(`waiting for an answer; answer it at ${questionPageUrl(endpoint.url, id)}`),
    // L4: the receipt of each decided question, in the hook's log (its stderr), for `askdock audit verify --receipt`.
    onReceipt: (id: string, receipt: string) => say(`receipt of ${id}: ${receipt}`) };
    if (event.kind === 'tool') {
      const outcome = await decideTool(agent, hookToolRequest(event), opts);
      if (!outcome.decision) {
        say(`no answer (${outcome.reason}); the agent asks in its own terminal`);
        return 0;
      }
      process.stdout.write(JSON.stringify(decisionOutput(event.event, event.agent, outcome.decision, outcome.approvedBy)) + '\n');
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
