/**
 * X5: `askdock mcp-proxy -- COMMAND ARGS`. An MCP server on stdio that runs COMMAND as an MCP server on stdio and
 * passes every JSON-RPC message both ways unchanged (tools, resources, prompts, notifications, progress, cancellation),
 * except the wrapped server's `elicitation/create`, which askdock answers. The proxy offers the wrapped server
 * elicitation in form and url modes whatever the real client supports. With `approve` (G4) every `tools/call` is first
 * an approval the gateway decides (src/agent/mcp-approve.ts).
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { connect, type Agent } from './sdk.ts';
import { ownSessionParams } from './own-session.ts';
import { terminalText } from '../lib/terminal-text.ts';
import { askElicitation, type ElicitationRequest, type RequestedSchema } from './elicitation.ts';
import { ElicitationQueue } from './elicitation-queue.ts';
import { ApprovalGate, proxySource } from './mcp-approve.ts';

export type ProxyOptions = {
  url: string;
  token: string;
  /**
   * Why askdock cannot be asked (no token, a bad address): the wrapped server is still relayed, and each of its
   * elicitations is answered `cancel` with this on stderr, so the client keeps the server's tools.
   */
  unavailable?: string;
  command: string;
  args: string[];
  sessionKey?: string;
  cwd?: string;
  /** Defaults to the process's stdio. */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  log?: (line: string) => void;
  /** Aborted when the caller is gone without a word (X6): ends the proxy as a closed stdin does. */
  signal?: AbortSignal;
  /** G4: every tools/call is an approval decided by the gateway before the server sees it. */
  approve?: boolean;
  /** The server's name in rules (`mcp__<name>__<tool>`) and session titles; else its serverInfo.name, else the command. */
  serverName?: string;
};

type Id = string | number;
type Msg = { jsonrpc: '2.0'; id?: Id; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: unknown };

/** Elicitation questions wait as long as an ask_user question does by default. */
const ELICIT_TIMEOUT_SECONDS = 900;

/** Runs the proxy until the real client closes stdio or the wrapped server exits; resolves the wrapped server's exit code. */
export async function runMcpProxy(opts: ProxyOptions): Promise<number> {
  // Lines name the wrapped server and what it sent: cleaned for the terminal.
  const log = opts.log ?? ((line: string) => process.stderr.write(`askdock mcp-proxy: ${terminalText(line)}\n`));
  const upstream = new StdioClientTransport({ command: opts.command, args: opts.args, cwd: opts.cwd, stderr: 'inherit', env: process.env as Record<string, string> });
  const downstream = new StdioServerTransport(opts.stdin as never, opts.stdout as never);

  let serverName = opts.serverName ?? opts.command;
  let agentPromise: Promise<Agent> | null = null;
  let sessionPromise: Promise<string> | null = null;
  /** Requests of the real client the wrapped server has not answered yet, by the client's id, newest last. */
  const inFlight = new Map<Id, Msg>();
  /** 2026-07-28 retries the proxy sent for the client: retry id -> the client's request id, and back. */
  const retryOf = new Map<Id, Id>();
  const currentId = new Map<Id, Id>();
  let retries = 0;
  /** Elicitations being asked: their controller, the client request they came during, and a url-mode completion. */
  const asking = new Map<Id, { controller: AbortController; during?: Id; elicitationId?: string; complete: () => void }>();

  const agent = () => {
    if (opts.unavailable) return Promise.reject(new Error(opts.unavailable));
    agentPromise ??= connect({ url: opts.url, token: opts.token, name: 'askdock-mcp-proxy', mode: 'mcp' });
    agentPromise.catch(() => (agentPromise = null));
    return agentPromise;
  };
  const session = async (a: Agent) => {
    if (opts.sessionKey) return opts.sessionKey;
    // X5: one session per server name and folder, titled `<server name> · <folder>`.
    sessionPromise ??= a.createSession(ownSessionParams({ clientName: serverName, cwd: opts.cwd ?? process.cwd() })).then((s) => s.key);
    sessionPromise.catch(() => (sessionPromise = null));
    return sessionPromise;
  };

  /** Asks one elicitation's params in askdock; its ElicitResult, or null when it was withdrawn meanwhile. */
  /** Elicitations being asked, so that closing waits for their cancels to reach the gateway (T5). */
  const running = new Set<Promise<unknown>>();
  /** X5: one elicitation asked at a time, in the order they came. */
  const queue = new ElicitationQueue();
  const elicit = (key: Id, p: Record<string, unknown>, during: Id | undefined): Promise<Record<string, unknown> | null> => {
    const asked = elicitOnce(key, p, during);
    running.add(asked);
    void asked.finally(() => running.delete(asked));
    return asked;
  };
  const elicitOnce = async (key: Id, p: Record<string, unknown>, during: Id | undefined): Promise<Record<string, unknown> | null> => {
    const controller = new AbortController();
    let complete = () => {};
    const completed = new Promise<void>((resolve) => (complete = resolve));
    asking.set(key, { controller, during, ...(typeof p.elicitationId === 'string' ? { elicitationId: p.elicitationId } : {}), complete });
    const req: ElicitationRequest =
      p.mode === 'url'
        ? { mode: 'url', message: String(p.message ?? ''), url: String(p.url ?? '') }
        : { mode: 'form', message: String(p.message ?? ''), requestedSchema: (p.requestedSchema ?? {}) as RequestedSchema };
    try {
      const outcome = await queue.run(controller.signal, async () => {
        const a = await agent();
        const sessionKey = await session(a);
        return askElicitation(a, req, { source: serverName, askSource: proxySource(serverName), sessionKey, timeoutSeconds: ELICIT_TIMEOUT_SECONDS, signal: controller.signal, completed });
      });
      return outcome.action === 'accept' ? { action: 'accept', ...(outcome.content ? { content: outcome.content } : {}) } : { action: outcome.action };
    } catch (err) {
      if (controller.signal.aborted) return null;
      log(`elicitation not asked: ${err instanceof Error ? err.message : String(err)}`);
      return { action: 'cancel' };
    } finally {
      asking.delete(key);
    }
  };

  const gate = opts.approve
    ? new ApprovalGate({ agent, session, serverName: () => serverName, cwd: opts.cwd ?? process.cwd(), timeoutSeconds: ELICIT_TIMEOUT_SECONDS, log, track: (p) => {
        running.add(p);
        void p.finally(() => running.delete(p));
      } })
    : null;

  /** G4: a tools/call waits for its approval; allowed, it goes to the server, else the proxy answers it. */
  const approveCall = async (message: JSONRPCMessage, msg: Msg) => {
    const outcome = await gate!.check(msg.id as Id, msg.params);
    if (!outcome) return;
    if (!outcome.forward) {
      await downstream.send({ jsonrpc: '2.0', id: msg.id, result: outcome.result } as JSONRPCMessage).catch(() => undefined);
      return;
    }
    inFlight.set(msg.id as Id, msg);
    void upstream.send(message).catch((err) => log(`could not pass a message to the server: ${err instanceof Error ? err.message : String(err)}`));
  };

  const lastInFlight = () => Array.from(inFlight.keys()).pop();

  const answerElicitation = async (msg: Msg) => {
    const result = await elicit(msg.id as Id, msg.params ?? {}, lastInFlight());
    // A request the wrapped server cancelled gets no answer.
    if (result) await upstream.send({ jsonrpc: '2.0', id: msg.id, result } as JSONRPCMessage).catch(() => undefined);
  };

  /**
   * 2026-07-28: the server answered the client's request with `input_required`. Its elicitations are asked in askdock
   * and the request is sent again with `inputResponses` (and `requestState`) under a new id, for the client.
   */
  const answerInputRequired = async (clientId: Id, result: Record<string, unknown>) => {
    const original = inFlight.get(clientId)!;
    const requests = (result.inputRequests ?? {}) as Record<string, { method?: string; params?: Record<string, unknown> }>;
    const responses: Record<string, unknown> = {};
    for (const [key, r] of Object.entries(requests)) {
      const answer = await elicit(`mrtr:${String(clientId)}:${key}`, r.params ?? {}, clientId);
      if (!answer) return; // the client cancelled its request
      responses[key] = answer;
    }
    if (!inFlight.has(clientId)) return;
    const id = `askdock-retry-${++retries}`;
    retryOf.set(id, clientId);
    currentId.set(clientId, id);
    const params = { ...(original.params ?? {}), inputResponses: responses, ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}) };
    await upstream.send({ jsonrpc: '2.0', id, method: original.method, params } as JSONRPCMessage).catch(() => undefined);
  };

  const cancelDuring = (requestId: Id) => {
    for (const entry of asking.values()) if (entry.during === requestId) entry.controller.abort(new Error('cancelled by the client'));
  };

  // The real client -> the wrapped server.
  downstream.onmessage = (message) => {
    const msg = message as Msg;
    if (msg.method === 'initialize' && msg.id !== undefined) {
      const params = { ...(msg.params ?? {}) };
      const caps = { ...((params.capabilities as Record<string, unknown>) ?? {}) };
      caps.elicitation = { form: {}, url: {} };
      params.capabilities = caps;
      void upstream.send({ ...msg, params } as JSONRPCMessage);
      return;
    }
    if (gate && msg.method === 'tools/call' && msg.id !== undefined) {
      void approveCall(message, msg);
      return;
    }
    if (msg.method && msg.id !== undefined) inFlight.set(msg.id, msg);
    if (msg.method === 'notifications/cancelled') {
      const requestId = msg.params?.requestId as Id | undefined;
      // A call still waiting for its approval was never sent: withdraw the question, tell the server nothing.
      if (requestId !== undefined && gate?.has(requestId)) {
        gate.cancel(requestId, 'cancelled by the client');
        return;
      }
      if (requestId !== undefined) {
        cancelDuring(requestId);
        // A request the proxy is retrying is cancelled under the id the server knows.
        const current = currentId.get(requestId);
        if (current !== undefined) message = { ...msg, params: { ...msg.params, requestId: current } } as JSONRPCMessage;
        inFlight.delete(requestId);
      }
    }
    void upstream.send(message).catch((err) => log(`could not pass a message to the server: ${err instanceof Error ? err.message : String(err)}`));
  };

  // The wrapped server -> the real client.
  upstream.onmessage = (message) => {
    const msg = message as Msg;
    if (msg.method === 'elicitation/create' && msg.id !== undefined) {
      void answerElicitation(msg);
      return;
    }
    if (msg.method === 'notifications/elicitation/complete') {
      const eid = msg.params?.elicitationId;
      for (const entry of asking.values()) if (entry.elicitationId === eid) entry.complete();
      return;
    }
    if (msg.method === 'notifications/cancelled') {
      const requestId = msg.params?.requestId as Id | undefined;
      const entry = requestId !== undefined ? asking.get(requestId) : undefined;
      if (entry) {
        entry.controller.abort(new Error('cancelled by the server'));
        return;
      }
    }
    if (!msg.method && msg.id !== undefined) {
      const clientId = retryOf.get(msg.id) ?? msg.id;
      retryOf.delete(msg.id);
      if (inFlight.has(clientId)) {
        const inputs = msg.result?.inputRequests as Record<string, { method?: string }> | undefined;
        const onlyElicitation = inputs && Object.values(inputs).length > 0 && Object.values(inputs).every((r) => r?.method === 'elicitation/create');
        if (msg.result?.resultType === 'input_required' && onlyElicitation) {
          void answerInputRequired(clientId, msg.result);
          return;
        }
        inFlight.delete(clientId);
        currentId.delete(clientId);
        // Elicitations asked during a request that has ended cannot be answered any more.
        cancelDuring(clientId);
        if (clientId !== msg.id) message = { ...msg, id: clientId } as JSONRPCMessage;
      }
      const info = msg.result?.serverInfo as { name?: unknown } | undefined;
      if (!opts.serverName && typeof info?.name === 'string' && info.name.trim()) serverName = info.name.trim();
    }
    void downstream.send(message).catch(() => undefined);
  };

  return new Promise<number>((resolve, reject) => {
    let ended = false;
    let clientGone = false;
    const end = (code: number) => {
      if (ended) return;
      ended = true;
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      opts.signal?.removeEventListener('abort', stop);
      for (const entry of asking.values()) entry.controller.abort(new Error('the proxy is closing'));
      gate?.closeAll('the proxy is closing');
      // The questions' cancels go out before the connection to the gateway closes (T5).
      void Promise.allSettled([...running])
        .then(async () => {
          if (agentPromise) (await agentPromise.catch(() => null))?.close();
        })
        .finally(() => resolve(code));
    };
    /** The real client left (stdin closed, or a signal): withdraw what is being asked and stop the wrapped server. */
    function stop() {
      if (clientGone) return;
      clientGone = true;
      for (const entry of asking.values()) entry.controller.abort(new Error('the client closed the connection'));
      gate?.closeAll('the client closed the connection');
      void upstream.close();
    }
    const stdin = opts.stdin ?? process.stdin;
    stdin.once('end', stop);
    stdin.once('close', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (opts.signal?.aborted) stop();
    else opts.signal?.addEventListener('abort', stop, { once: true });
    let child: import('node:child_process').ChildProcess | undefined;
    upstream.onclose = () => {
      // 'close' comes after 'exit', so the exit code is known here; a server the proxy stopped ends it with 0.
      end(clientGone ? 0 : (child?.exitCode ?? (child?.signalCode ? 1 : 0)));
      void downstream.close();
    };
    upstream.onerror = (err) => log(`server: ${err.message}`);
    downstream.onclose = () => stop();
    upstream
      .start()
      .then(() => {
        child = (upstream as unknown as { _process?: import('node:child_process').ChildProcess })._process;
        return downstream.start();
      })
      .catch(reject);
  });
}
