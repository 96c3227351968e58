import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AskdockError, type FieldProblem } from '../protocol/index.ts';
import { ASK_USER_TOOL_NAME, resultText, type AskUserResult } from './ask-user.ts';

/** The error as JSON: the protocol's `{code, message, details}` (Q2, RU1), and for bad input the same list as `problems`. */
export function errorResult(
  text: string,
  structured: { code: string; message: string; details?: unknown; retryable?: boolean; retryAfterMs?: number; problems?: FieldProblem[] },
): CallToolResult {
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

/** The refusal whole, as the protocol has it: RATE_LIMITED with its retryAfterMs, UNAVAILABLE with its retryable. */
export function gatewayErrorResult(err: unknown, tool = ASK_USER_TOOL_NAME): CallToolResult {
  // Not the gateway's own refusal (a socket that failed): the gateway is out of reach, which a later call may not be.
  const e = err instanceof AskdockError ? err : new AskdockError('UNAVAILABLE', err instanceof Error ? err.message : String(err), { retryable: true });
  const problems = Array.isArray(e.details) ? (e.details as FieldProblem[]) : undefined;
  return errorResult(`${tool} failed (${e.code}): ${e.message}`, {
    code: e.code,
    message: e.message,
    ...(e.details !== undefined ? { details: e.details } : {}),
    ...(e.retryable !== undefined ? { retryable: e.retryable } : {}),
    ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
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
