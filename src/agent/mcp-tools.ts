import type { CallToolResult, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { questionPageUrl } from '../client/client.ts';
import type { FieldProblem } from '../protocol/index.ts';
import {
  ASK_USER_DESCRIPTION,
  ASK_USER_INPUT_SCHEMA,
  ASK_USER_OUTPUT_SCHEMA,
  ASK_USER_TOOL_NAME,
  validateAskUser,
  type AskUserCall,
  type AskUserResult,
} from './ask-user.ts';
import { answeredResult, gatewayErrorResult } from './mcp-results.ts';
import { requestSecretTool, REQUEST_SECRET_TOOL_NAME, secretCommand, secretResultText, validateRequestSecret, type RequestSecretArgs } from './request-secret-tool.ts';
import type { Agent } from './sdk.ts';

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

/** What a tool call may use from the server that runs it. */
export type ToolContext = {
  agent: Agent;
  log: (line: string) => void;
  /** The gateway address(es) the server was given, for a question's page link when the gateway names no public one. */
  url: string | readonly string[];
  /** Given: every question goes to this session, without waiting for the turn (T6). */
  fixedSession: boolean;
  sessionForAsk(): Promise<string>;
  askdockCommand?: string;
};

/** One call, once its arguments passed the tool's check and the gateway is reachable. */
export type ToolCall<Args> = {
  args: Args;
  raw: unknown;
  /** Aborted by the MCP client's cancellation or by the server stopping (T5). */
  signal: AbortSignal;
  progressToken?: string | number;
  sendNotification(notification: ServerNotification): Promise<void>;
};

/** One MCP tool: its listing, the check of its arguments, and what a call does. */
export type McpTool<Args> = {
  /** What tools/list shows: name, description, input and output schemas. */
  definition(askdockCommand?: string): { name: string };
  validate(raw: unknown): { ok: true; value: Args } | { ok: false; problems: FieldProblem[] };
  call(ctx: ToolContext, call: ToolCall<Args>): Promise<CallToolResult>;
};

/** Each entry checks its own arguments before its call sees them, so the table can hold tools of any argument type. */
const tool = <Args>(t: McpTool<Args>) => t as unknown as McpTool<unknown>;

async function askUser(ctx: ToolContext, call: ToolCall<AskUserCall>): Promise<CallToolResult> {
  let ticks = 0;
  let pageUrl: string | undefined;
  const progressToken = call.progressToken;
  const progress =
    progressToken === undefined
      ? undefined
      : setInterval(() => {
          ticks += 1;
          call
            .sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress: ticks, message: pageUrl ? `waiting for the user to answer at ${pageUrl}` : 'waiting for the user to answer' },
            })
            .catch(() => undefined);
        }, PROGRESS_EVERY_MS);
  try {
    const sessionKey = await ctx.sessionForAsk();
    const result = await ctx.agent.askUser(call.raw as never, {
      signal: call.signal,
      sessionKey,
      askSource: 'mcp',
      waitTurn: !ctx.fixedSession,
      onAsked: ({ id }) => {
        pageUrl = questionPageUrl(ctx.agent.client.hello?.server.publicUrl ?? ctx.url, id);
        ctx.log(`ask_user: waiting for an answer; answer it at ${pageUrl}`);
      },
    });
    return answeredResult(call.args.questions, result);
  } catch (err) {
    if (call.signal.aborted) {
      ctx.log('ask_user cancelled; the question was withdrawn');
      const cancelled: AskUserResult = { status: 'no_answer', reason: 'cancelled' };
      return answeredResult(call.args.questions, cancelled);
    }
    return gatewayErrorResult(err);
  } finally {
    clearInterval(progress);
  }
}

/** W4: the result names the secret and the command that reads it; the value never passes through here. */
async function requestSecret(ctx: ToolContext, call: ToolCall<RequestSecretArgs>): Promise<CallToolResult> {
  try {
    // T6: the masked prompt docks in the same conversation as this server's questions.
    const sessionKey = await ctx.sessionForAsk();
    const result = await ctx.agent.requestSecret(call.args, { signal: call.signal, sessionKey });
    const structured = { ...result, ...(result.status === 'stored' ? { command: secretCommand(result.name, ctx.askdockCommand) } : {}) };
    return { content: [{ type: 'text', text: secretResultText(result, ctx.askdockCommand) }], structuredContent: structured };
  } catch (err) {
    if (call.signal.aborted) {
      ctx.log('request_secret cancelled; the request was withdrawn');
      return { content: [{ type: 'text', text: secretResultText({ status: 'cancelled', name: call.args.name }) }] };
    }
    return gatewayErrorResult(err, REQUEST_SECRET_TOOL_NAME);
  }
}

/** The server's tools, one entry each (as the MCP SDK's tool registry): a new tool is its module and one line here. */
export const MCP_TOOLS: Record<string, McpTool<unknown>> = {
  [ASK_USER_TOOL_NAME]: tool<AskUserCall>({ definition: () => ASK_USER_TOOL, validate: (raw) => validateAskUser(raw ?? {}), call: askUser }),
  [REQUEST_SECRET_TOOL_NAME]: tool<RequestSecretArgs>({ definition: requestSecretTool, validate: validateRequestSecret, call: requestSecret }),
};
