import * as z from 'zod';
import {
  NUL_PROBLEM,
  ResolveParams,
  SecretProvideParams,
  formatPath,
  invalidRequest,
  methods,
  nulPaths,
  zodProblems,
  type AskdockError,
  type MethodName,
} from '../protocol/index.ts';
import { plainParams } from '../protocol/plain-params.ts';
import { chatHandlers } from './handlers/chat.ts';
import { questionHandlers } from './handlers/questions.ts';
import { searchHandlers } from './handlers/search.ts';
import { pushHandlers } from './handlers/push.ts';
import { agentHandlers } from './handlers/agents.ts';
import { secretHandlers } from './handlers/secrets.ts';
import { sessionHandlers } from './handlers/sessions.ts';
import { policyHandlers } from './handlers/policy.ts';
import { routingHandlers } from './handlers/routing.ts';
import { auditHandlers } from './handlers/audit.ts';
import type { Ctx, Handler, HandlerTable } from './handlers/types.ts';
import { requireMethodScope } from './sessions/visibility.ts';

/** One table keyed by method name; every family contributes its own handlers. */
const table: HandlerTable = { ...sessionHandlers, ...chatHandlers, ...questionHandlers, ...secretHandlers, ...searchHandlers, ...pushHandlers, ...agentHandlers, ...policyHandlers, ...routingHandlers, ...auditHandlers };

const [answerBranch, skipBranch, cancelBranch] = ResolveParams.options;
const [provideBranch, provideSkipBranch] = SecretProvideParams.options;

/**
 * A union reports one vague issue for the whole object; picking the branch the caller meant
 * lets question.resolve name the field at fault like every other method.
 */
function paramsSchema(method: MethodName, raw: unknown): z.ZodType {
  if (method === 'question.resolve' && raw && typeof raw === 'object') {
    if ('cancel' in raw) return cancelBranch;
    if ('skip' in raw) return skipBranch;
    return answerBranch;
  }
  if (method === 'secret.provide' && raw && typeof raw === 'object') return 'skip' in raw ? provideSkipBranch : provideBranch;
  return methods[method].params;
}

/**
 * P3: the refusal of params that hold U+0000 in any text (no store keeps it), naming each field; undefined when none
 * does. `frameText` (the frame as received) lets a socket's request skip the walk, as for nulPaths.
 */
export function nulRefusal(where: string, params: unknown, frameText?: string): AskdockError | undefined {
  const nul = nulPaths(params, frameText);
  return nul.length === 0 ? undefined : invalidRequest(where, nul.map((path) => ({ path: formatPath(path), problem: NUL_PROBLEM })));
}

function checkedResult(method: MethodName, result: unknown): unknown {
  const ok = methods[method].result.safeParse(result);
  if (!ok.success) throw new Error(`result of ${method} breaks its schema: ${ok.error.message}`);
  return result;
}

/**
 * A5 scope check, then params parsed with the method's schema (every problem at once; plainly well-formed params of
 * the question round trip's methods are read without it, to the same value: plain-params.ts), then the handler. A refusal
 * throws; the result is the handler's, a promise only when the handler waits (most answer at once, and a promise
 * per request would cost a microtask turn each).
 */
export function dispatch(method: MethodName, rawParams: unknown, ctx: Ctx, checkResult: boolean): unknown {
  requireMethodScope(ctx.conn.identity, method);
  const raw = rawParams === undefined ? {} : rawParams;
  let params = plainParams(method, raw);
  if (params === undefined) {
    const parsed = paramsSchema(method, raw).safeParse(raw);
    if (!parsed.success) throw invalidRequest(method, zodProblems(parsed.error));
    params = parsed.data;
  }
  const handler = table[method] as Handler<MethodName>;
  const result = handler(params as never, ctx);
  if (!checkResult) return result;
  return result instanceof Promise ? result.then((r) => checkedResult(method, r)) : checkedResult(method, result);
}
