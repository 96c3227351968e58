/**
 * `askdock mcp`: the ask_user tool for any MCP client over stdio. stdout carries MCP frames only; logs go to stderr.
 * MCP cancellation and the client closing stdin cancel pending questions at the gateway (T5).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { refusalError } from '../client/first-hello.ts';
import { createNodeClient } from '../client/node.ts';
import { AskdockError, SERVER_VERSION } from '../protocol/index.ts';
import { errorResult, gatewayErrorResult, invalidCallResult } from './mcp-results.ts';
import { MCP_TOOLS, type ToolContext } from './mcp-tools.ts';
import { Agent } from './sdk.ts';
import { terminalText } from '../lib/terminal-text.ts';

export type McpServeOptions = {
  /** One gateway or several (D4), as for connect(). */
  url: string | readonly string[];
  token: string;
  /** Binds every question to this session; without it they go to a session of its own (T6). */
  sessionKey?: string;
  /** The working directory that names the session of its own (T6); the process's by default. */
  cwd?: string;
  stdin?: Readable;
  stdout?: Writable;
  log?: (line: string) => void;
  /** How long a tool call waits for the gateway connection before it reports the gateway unreachable. */
  connectWaitMs?: number;
  /** The command a shell runs to read a stored secret (W4): `askdock mcp` gives its own bin's absolute path. */
  askdockCommand?: string;
};

/** Runs the MCP server until stdin closes (or SIGINT/SIGTERM); resolves with the exit code. */
export async function serveMcp(opts: McpServeOptions): Promise<number> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`askdock mcp: ${terminalText(line)}\n`));
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  const client = createNodeClient({ url: opts.url, token: opts.token, client: { name: 'askdock-mcp', mode: 'mcp' } });
  const agent = new Agent(client);
  let fatal: unknown = null;
  // Connect in the background: tools/list must answer even while the gateway is not up yet.
  const started = client.start({ attempts: 1, giveUpAfterMs: opts.connectWaitMs ?? 10_000 }).then(
    () => {
      log(`connected to ${client.url}${opts.sessionKey ? ` (session ${opts.sessionKey})` : ''}`);
      // RU1: a denied identity gets no tools, and the person running it learns why.
      if (!agent.mayAsk)
        log(`identity "${agent.identity}" may not ask: the gateway config denies it ask_user, so no ask_user or request_secret tool is offered`);
    },
    (err) => {
      // S4: a locked-out address is refused only until retryAfterMs; like an unreachable gateway, the next call tries again.
      if (err instanceof AskdockError && err.code !== 'UNAVAILABLE' && err.code !== 'RATE_LIMITED') {
        fatal = err;
        log(`gateway refused the connection: ${err.message}`);
      } else {
        log(`${err instanceof Error ? err.message : String(err)}; will connect on the next ask_user call`);
      }
    },
  );

  const inflight = new Set<AbortController>();
  // T6: made on first use, one per identity + MCP client + folder; a failed attempt is tried again on the next call.
  let ownSession: Promise<string> | null = null;
  const sessionForAsk = (): Promise<string> => {
    if (opts.sessionKey) return Promise.resolve(opts.sessionKey);
    ownSession ??= agent
      .ownSession({ clientName: server.getClientVersion()?.name ?? '', cwd: opts.cwd ?? process.cwd() })
      .then((session) => {
        log(`asking in session "${session.title}" (${session.key})`);
        return session.key;
      });
    ownSession.catch(() => (ownSession = null));
    return ownSession;
  };
  const server = new Server(
    { name: 'askdock', version: SERVER_VERSION },
    {
      capabilities: { tools: {} },
      instructions: 'askdock lets you ask the user structured questions with ask_user. Ask only for decisions that belong to the user.',
    },
  );

  // W1: once the gateway said who we are, a denied identity lists no tool at all; before that (gateway down) both are offered.
  // A client may close stdin right after its last request: stopping answers the listings it already received first.
  const listing = new Set<Promise<unknown>>();
  server.setRequestHandler(ListToolsRequestSchema, () => {
    const listed = started
      .catch(() => undefined)
      .then(() => ({ tools: agent.mayAsk ? Object.values(MCP_TOOLS).map((tool) => tool.definition(opts.askdockCommand)) : [] }));
    listing.add(listed);
    void listed.finally(() => listing.delete(listed));
    return listed;
  });

  /** Connects when the first connect failed (gateway down then); an error result when the gateway stays unreachable. */
  async function ensureConnected(): Promise<CallToolResult | null> {
    if (fatal) return gatewayErrorResult(fatal);
    if (client.state.status === 'closed') {
      try {
        await client.start({ attempts: 1, giveUpAfterMs: opts.connectWaitMs ?? 10_000 });
      } catch (err) {
        return gatewayErrorResult(err);
      }
    }
    try {
      await client.ready(opts.connectWaitMs ?? 10_000);
    } catch {
      // S4: a gateway that locked this address out is running; it says when to come back.
      const last = client.state.lastError;
      if (last?.code === 'RATE_LIMITED') return gatewayErrorResult(refusalError(last));
      return gatewayErrorResult(new AskdockError('UNAVAILABLE', `cannot reach the gateway at ${opts.url}; is \`askdock start\` running?`, { retryable: true }));
    }
    if (!agent.mayAsk)
      return errorResult(`identity "${agent.identity}" may not ask the user: the gateway config denies ask_user`, {
        code: 'FORBIDDEN',
        message: 'ask_user is denied for this identity',
        details: { reason: 'denied' },
      });
    return null;
  }

  const ctx: ToolContext = {
    agent,
    log,
    url: opts.url,
    fixedSession: !!opts.sessionKey,
    sessionForAsk,
    ...(opts.askdockCommand !== undefined ? { askdockCommand: opts.askdockCommand } : {}),
  };

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const name = request.params.name;
    const tool = Object.hasOwn(MCP_TOOLS, name) ? MCP_TOOLS[name] : undefined;
    if (!tool) {
      return errorResult(`unknown tool "${name}"; this server has ${Object.keys(MCP_TOOLS).join(' and ')}`, {
        code: 'METHOD_NOT_FOUND',
        message: `unknown tool ${name}`,
      });
    }
    const checked = tool.validate(request.params.arguments);
    if (!checked.ok) return invalidCallResult(checked.problems, name);
    const unreachable = await ensureConnected();
    if (unreachable) return unreachable;
    // Stopping the server aborts the call as the client's cancellation does (T5).
    const stopper = new AbortController();
    inflight.add(stopper);
    try {
      return await tool.call(ctx, {
        args: checked.value,
        raw: request.params.arguments,
        signal: AbortSignal.any([extra.signal, stopper.signal]),
        ...(request.params._meta?.progressToken !== undefined ? { progressToken: request.params._meta.progressToken } : {}),
        sendNotification: (n) => extra.sendNotification(n),
      });
    } finally {
      inflight.delete(stopper);
    }
  });

  const transport = new StdioServerTransport(stdin, stdout);
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (finish = resolve));
  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    log(`${why}; stopping`);
    // Withdraw every pending question before the connection goes (T5).
    const waiting = [...inflight];
    for (const c of waiting) c.abort(new Error(why));
    const deadline = Date.now() + 2_000;
    while ((inflight.size || listing.size) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    agent.close();
    await server.close().catch(() => undefined);
    finish(0);
  };
  stdin.once('end', () => void stop('stdin closed'));
  stdin.once('close', () => void stop('stdin closed'));
  const onSignal = (sig: NodeJS.Signals) => void stop(`received ${sig}`);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  server.onerror = (err) => log(`MCP error: ${err.message}`);

  await server.connect(transport);
  const code = await done;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  return code;
}
