/**
 * One blocking prompt asked for an agent's own question (an approval, AskUserQuestion, an MCP elicitation): checked
 * with the protocol's rules, asked in its session, waited on, and cancelled at once when the signal aborts (T5, X6).
 */
import { QuestionList, type QuestionItemInput } from '../protocol/index.ts';
import { clampTimeoutSeconds, askUserError, type AskUserResult } from './ask-user-result.ts';
import { abortError, cancelQuestion, askerSurface, newQuestionId, raceAbort, requestInTurn, waitForAnswer } from './sdk-ask.ts';
import type { Agent } from './sdk.ts';
import { zodProblems } from '../protocol/index.ts';

export type PromptOptions = {
  sessionKey?: string;
  timeoutSeconds?: number;
  signal?: AbortSignal;
  /** Called once the gateway holds the question (its id, e.g. to cancel it from elsewhere). */
  onAsked?: (id: string) => void;
  /** E1: what asks, for the gateway's routes (`hook:claude-code`, `mcp-proxy:<server>`); `sdk` unless given. */
  askSource?: string;
  /** E1: the prompt asks an MCP server's elicitation (routes match kind `elicitation`). */
  elicitation?: boolean;
  /** L4: called with the gateway's signed receipt of each decided question (none while its log is unsigned). */
  onReceipt?: (id: string, receipt: string) => void;
};

/** Asks `questions` (1..3) and waits; an aborted signal cancels the question and rejects with an AbortError. */
/** What a tool's input carries may hold U+0000, which no frame may (P3): it is shown as ␀ rather than refused. */
export const visibleNul = <T>(value: T): T =>
  typeof value === 'string'
    ? (value.replaceAll('\u0000', '\u2400') as T)
    : Array.isArray(value)
      ? (value.map(visibleNul) as T)
      : value && typeof value === 'object'
        ? (Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visibleNul(v)])) as T)
        : value;

export async function askPrompt(agent: Agent, questions: QuestionItemInput[], opts: PromptOptions = {}): Promise<AskUserResult> {
  const parsed = QuestionList.safeParse(visibleNul(questions));
  if (!parsed.success) throw askUserError(zodProblems(parsed.error));
  const { signal } = opts;
  if (signal?.aborted) throw abortError(signal);
  const id = newQuestionId();
  const call = { questions: parsed.data, timeoutSeconds: clampTimeoutSeconds(opts.timeoutSeconds), timeoutGiven: true };
  const cancel = async (err: unknown) => {
    if (!signal?.aborted) return err;
    await cancelQuestion(agent.client, id, 'aborted', undefined, askerSurface(opts.askSource));
    return abortError(signal);
  };
  try {
    await raceAbort(requestInTurn(agent.client, id, call, { ...(opts.sessionKey ? { sessionKey: opts.sessionKey } : {}), ...(opts.askSource !== undefined ? { askSource: opts.askSource } : {}), ...(opts.elicitation ? { elicitation: true } : {}), waitTurn: true, signal }), signal);
  } catch (err) {
    throw await cancel(err);
  }
  opts.onAsked?.(id);
  let result: AskUserResult;
  try {
    result = await waitForAnswer(agent.client, id, signal);
  } catch (err) {
    throw await cancel(err);
  }
  if (result.receipt !== undefined) opts.onReceipt?.(id, result.receipt);
  return result;
}
