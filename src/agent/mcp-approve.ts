/**
 * G4: `askdock mcp-proxy --approve`. Every `tools/call` of the wrapped server is first an approval the gateway decides
 * by its policy (`mcp__<server>__<tool>`, the arguments as input, agent `mcp`); only an allowed call reaches the
 * server. A denied call, or one nobody answered, is answered by the proxy with an MCP error result naming the rule or
 * the reason, and the server never sees it.
 */
import { mcpApproval } from './approval-facts.ts';
import { decidedBy, denyMessage, requestApproval } from './approval-request.ts';
import type { Agent } from './sdk.ts';

type Id = string | number;

export type ApprovalGateOptions = {
  agent: () => Promise<Agent>;
  session: (agent: Agent) => Promise<string>;
  /** The wrapped server's name (its serverInfo.name once known). */
  serverName: () => string;
  cwd: string;
  timeoutSeconds: number;
  log: (line: string) => void;
  /** Keeps each pending approval, so that closing waits for its cancel to reach the gateway (T5). */
  track: (p: Promise<unknown>) => void;
};

/** What becomes of a call: forwarded to the server, answered by the proxy, or dropped (the client cancelled it). */
export type GateOutcome = { forward: true } | { forward: false; result: Record<string, unknown> } | null;

/** E1: what the proxy's questions say asks, `mcp-proxy:<server>`, with the server's name as rules and titles use it. */
export const proxySource = (serverName: string): string => `mcp-proxy:${serverName.replace(/\s+/g, ' ').slice(0, 100)}`;

/** An MCP tool result that is an error the model reads. */
export const toolError = (text: string) => ({ content: [{ type: 'text', text }], isError: true });

export class ApprovalGate {
  private readonly pending = new Map<Id, AbortController>();

  constructor(private readonly opts: ApprovalGateOptions) {}

  /** Whether `id` is a call waiting for its approval. */
  has(id: Id): boolean {
    return this.pending.has(id);
  }

  /** Decides one tools/call; resolves how to go on. */
  check(id: Id, params: Record<string, unknown> | undefined): Promise<GateOutcome> {
    const done = this.decide(id, params ?? {});
    this.opts.track(done);
    return done;
  }

  /** The client cancelled call `id` while its approval waited: withdraw the question. */
  cancel(id: Id, why: string): void {
    this.pending.get(id)?.abort(new Error(why));
  }

  closeAll(why: string): void {
    for (const controller of this.pending.values()) controller.abort(new Error(why));
  }

  private async decide(id: Id, params: Record<string, unknown>): Promise<GateOutcome> {
    const tool = typeof params.name === 'string' ? params.name : '';
    const args = params.arguments && typeof params.arguments === 'object' && !Array.isArray(params.arguments) ? (params.arguments as Record<string, unknown>) : {};
    const approval = mcpApproval(this.opts.serverName(), tool, args, { cwd: this.opts.cwd });
    const controller = new AbortController();
    this.pending.set(id, controller);
    try {
      const agent = await this.opts.agent();
      const sessionKey = await this.opts.session(agent);
      const outcome = await requestApproval(agent, approval, { sessionKey, askSource: proxySource(this.opts.serverName()), timeoutSeconds: this.opts.timeoutSeconds, signal: controller.signal });
      if (!outcome.decision) return { forward: false, result: toolError(`No answer in askdock (${outcome.reason}); ${approval.tool} was not called.`) };
      this.opts.log(`${approval.tool} ${decidedBy(outcome.decision)}`);
      if (outcome.decision.behavior === 'allow') return { forward: true };
      return { forward: false, result: toolError(`${approval.tool} was ${decidedBy(outcome.decision)}: ${denyMessage(outcome.decision)}`) };
    } catch (err) {
      if (controller.signal.aborted) return null;
      const why = err instanceof Error ? err.message : String(err);
      this.opts.log(`${approval.tool} not called: askdock could not decide it (${why})`);
      // G10: nothing is allowed because something failed.
      return { forward: false, result: toolError(`askdock could not decide whether ${approval.tool} may run (${why}); it was not called.`) };
    } finally {
      this.pending.delete(id);
    }
  }
}
