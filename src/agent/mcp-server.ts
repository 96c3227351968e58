/**
 * `askdock mcp`: the ask_user tool for any MCP client over stdio. stdout carries MCP frames only; logs go to stderr.
 * MCP cancellation and the client closing stdin cancel pending questions at the gateway (T5).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { createNodeClient } from '../client/node.ts';
import { questionPageUrl } from '../client/client.ts';
import { AskdockError, SERVER_VERSION, type FieldProblem } from '../protocol/index.ts';
import {
  ASK_USER_DESCRIPTION,
  ASK_USER_INPUT_SCHEMA,
  ASK_USER_OUTPUT_SCHEMA,
  ASK_USER_TOOL_NAME,
  resultText,
  validateAskUser,
  type AskUserResult,
} from './ask-user.ts';
import {
  requestSecretTool,
  REQUEST_SECRET_TOOL_NAME,
  secretCommand,
  secretResultText,
  validateRequestSecret,
} from './request-secret-tool.ts';
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

/** Sent while a question waits, so clients that reset their timeout on progress keep waiting for the person. */
const PROGRESS_EVERY_MS = 10_000;

export const ASK_USER_TOOL = {
  name: ASK_USER_TOOL_NAME,
  title: 'Ask the user',
  description: ASK_USER_DESCRIPTION,
  inputSchema: ASK_USER_INPUT_SCHEMA,
  outputSchema: ASK_USER_OUTPUT_SCHEMA,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
};

/** The error as JSON: the protocol's `{code, message, details}` (Q2, RU1), and for bad input the same list as `problems`. */
function errorResult(text: string, structured: { code: string; message: string; details?: unknown; problems?: FieldProblem[] }): CallToolResult {
  return {
    isError: true,
    content: [
      { type: 'text', text },
      { type: 'text', text: JSON.stringify({ error: structured }) },
    ],
  };
}

/** T3 over MCP: every field at fault, as lines a model can act on and as JSON. */
export function invalidCallResult(problems: FieldProblem[], tool = ASK_USER_TOOL_NAME): CallToolResult {
  const lines = problems.map((p) => `- ${p.path}: ${p.problem}`);
  return errorResult(`${tool} was called with invalid arguments. Fix every field listed and call it again:\n${lines.join('\n')}`, {
    code: 'INVALID_REQUEST',
    message: `invalid ${tool} call`,
    details: problems,
    problems,
  });
}

function gatewayErrorResult(err: unknown, tool = ASK_USER_TOOL_NAME): CallToolResult {
  const e = err instanceof AskdockError ? err : new AskdockError('UNAVAILABLE', err instanceof Error ? err.message : String(err));
  const problems = Array.isArray(e.details) ? (e.details as FieldProblem[]) : undefined;
  return errorResult(`${tool} failed (${e.code}): ${e.message}`, {
    code: e.code,
    message: e.message,
    ...(e.details !== undefined ? { details: e.details } : {}),
    ...(problems ? { problems } : {}),
  });
}

export function answeredResult(questions: Parameters<typeof resultText>[0], result: AskUserResult): CallToolResult {
  return {
    content: [
      { type: 'text', text: JSON.stringify(result) },
      { type: 'text', text: resultText(questions, result) },
    ],
    structuredContent: result,
  };
}

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
      if (err instanceof AskdockError && err.code !== 'UNAVAILABLE') {
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
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await started.catch(() => undefined);
    return { tools: agent.mayAsk ? [ASK_USER_TOOL, requestSecretTool(opts.askdockCommand)] : [] };
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
      return gatewayErrorResult(new AskdockError('UNAVAILABLE', `cannot reach the gateway at ${opts.url}; is \`askdock start\` running?`));
    }
    if (!agent.mayAsk)
      return errorResult(`identity "${agent.identity}" may not ask the user: the gateway config denies ask_user`, {
        code: 'FORBIDDEN',
        message: 'ask_user is denied for this identity',
        details: { reason: 'denied' },
      });
    return null;
  }

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = request.params.name;
    if (tool !== ASK_USER_TOOL_NAME && tool !== REQUEST_SECRET_TOOL_NAME) {
      return errorResult(`unknown tool "${tool}"; this server has ${ASK_USER_TOOL_NAME} and ${REQUEST_SECRET_TOOL_NAME}`, {
        code: 'METHOD_NOT_FOUND',
        message: `unknown tool ${tool}`,
      });
    }
    if (tool === REQUEST_SECRET_TOOL_NAME) return callRequestSecret(request.params.arguments, extra.signal);
    const checked = validateAskUser(request.params.arguments ?? {});
    if (!checked.ok) return invalidCallResult(checked.problems);
    const unreachable = await ensureConnected();
    if (unreachable) return unreachable;

    const controller = new AbortController();
    const onAbort = () => controller.abort(extra.signal.reason);
    extra.signal.addEventListener('abort', onAbort, { once: true });
    inflight.add(controller);
    const progressToken = request.params._meta?.progressToken;
    let ticks = 0;
    let pageUrl: string | undefined;
    const progress =
      progressToken === undefined
        ? undefined
        : setInterval(() => {
            ticks += 1;
            extra
              .sendNotification({
                method: 'notifications/progress',
                params: { progressToken, progress: ticks, message: pageUrl ? `waiting for the user to answer at ${pageUrl}` : 'waiting for the user to answer' },
              })
              .catch(() => undefined);
          }, PROGRESS_EVERY_MS);
    try {
      const sessionKey = await sessionForAsk();
      const result = await agent.askUser(request.params.arguments as never, {
        signal: controller.signal,
        sessionKey,
        waitTurn: !opts.sessionKey,
        onAsked: ({ id }) => {
          pageUrl = questionPageUrl(agent.client.hello?.server.publicUrl ?? opts.url, id);
          log(`ask_user: waiting for an answer; answer it at ${pageUrl}`);
        },
      });
      return answeredResult(checked.value.questions, result);
    } catch (err) {
      if (controller.signal.aborted) {
        log('ask_user cancelled; the question was withdrawn');
        const cancelled: AskUserResult = { status: 'no_answer', reason: 'cancelled' };
        return answeredResult(checked.value.questions, cancelled);
      }
      return gatewayErrorResult(err);
    } finally {
      clearInterval(progress);
      extra.signal.removeEventListener('abort', onAbort);
      inflight.delete(controller);
    }
  });

  /** W4: the result names the secret and the command that reads it; the value never passes through here. */
  async function callRequestSecret(raw: unknown, signal: AbortSignal): Promise<CallToolResult> {
    const checked = validateRequestSecret(raw);
    if (!checked.ok) return invalidCallResult(checked.problems, REQUEST_SECRET_TOOL_NAME);
    const unreachable = await ensureConnected();
    if (unreachable) return unreachable;
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    inflight.add(controller);
    try {
      // T6: the masked prompt docks in the same conversation as this server's questions.
      const sessionKey = await sessionForAsk();
      const result = await agent.requestSecret(checked.value, { signal: controller.signal, sessionKey });
      const structured = { ...result, ...(result.status === 'stored' ? { command: secretCommand(result.name, opts.askdockCommand) } : {}) };
      return { content: [{ type: 'text', text: secretResultText(result, opts.askdockCommand) }], structuredContent: structured };
    } catch (err) {
      if (controller.signal.aborted) {
        log('request_secret cancelled; the request was withdrawn');
        return { content: [{ type: 'text', text: secretResultText({ status: 'cancelled', name: checked.value.name }) }] };
      }
      return gatewayErrorResult(err, REQUEST_SECRET_TOOL_NAME);
    } finally {
      signal.removeEventListener('abort', onAbort);
      inflight.delete(controller);
    }
  }

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
    while (inflight.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
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
