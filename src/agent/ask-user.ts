/**
 * The ask_user tool contract shared by the SDK, the MCP server, the demo agent and `askdock ask`: the result shapes with
 * their text for the model (T2). Its JSON Schema and description (T1, T4) are in ask-user-schema.ts; validation that
 * reports every field at fault (T3), normalisation and timeout clamping in ask-user-call.ts. Both are re-exported here.
 */
import type { Answers, QuestionItem, QuestionStatus, ResolvedByView, RouteState } from '../protocol/index.ts';
import { answerLines, answersAsNamed } from '../answers/summary.ts';

export {
  DEFAULT_TIMEOUT_SECONDS,
  MIN_TIMEOUT_SECONDS,
  MAX_TIMEOUT_SECONDS,
  askUserError,
  clampTimeoutSeconds,
  parseAskUser,
  validateAskUser,
  type AskUserCall,
  type AskUserInput,
  type AskUserQuestion,
  type Validation,
} from './ask-user-call.ts';
export { ASK_USER_DESCRIPTION, ASK_USER_INPUT_SCHEMA, ASK_USER_OUTPUT_SCHEMA, type JsonSchemaNode } from './ask-user-schema.ts';

export const ASK_USER_TOOL_NAME = 'ask_user';

export type NoAnswerReason = 'skipped' | 'expired' | 'cancelled';

/** T2: what the tool returns. The outer `answers` is the protocol's envelope; the inner map is keyed by question id. */
/** E8: who answered a routed question, and its escalation trail, as the gateway tells it. */
export type AnsweredBy = { resolvedBy?: ResolvedByView; route?: RouteState };

/** `receipt` (L4): the gateway's signed receipt of the decision, when its audit log is signed. */
export type AskUserResult =
  | ({ status: 'answered'; answers: { answers: Answers }; receipt?: string } & AnsweredBy)
  | { status: 'no_answer'; reason: NoAnswerReason; receipt?: string };

/** Maps a terminal record status (from question.waitAnswer or question.get) to T2; null while still pending. */
export function toAskUserResult(status: QuestionStatus, answers?: Answers, by: AnsweredBy = {}): AskUserResult | null {
  switch (status) {
    case 'pending':
      return null;
    case 'answered':
      return { status: 'answered', answers: { answers: answers ?? {} }, ...(by.resolvedBy ? { resolvedBy: by.resolvedBy } : {}), ...(by.route ? { route: by.route } : {}) };
    default:
      return { status: 'no_answer', reason: status };
  }
}

const NO_ANSWER_TEXT: Record<NoAnswerReason, string> = {
  skipped: 'the user declined to answer',
  expired: 'nobody answered in time',
  cancelled: 'the question was withdrawn before anyone answered',
};

/**
 * T2: the text a model reads. One `Header: value, value` line per question (`Deploy: Staging`: a chosen option is named
 * without its ` (Recommended)` mark, and free text keeps to its line), or what to do after no answer. The JSON result
 * beside it keeps every value exactly as answered.
 */
export function resultText(questions: ReadonlyArray<Pick<QuestionItem, 'id' | 'header' | 'question' | 'options'>>, result: AskUserResult): string {
  if (result.status === 'no_answer') {
    return `No answer (${result.reason}): ${NO_ANSWER_TEXT[result.reason]}. Continue with your best judgment and do not ask the same question again.`;
  }
  const named = answersAsNamed(questions, result.answers.answers);
  for (const id of Object.keys(named)) named[id] = named[id].map((v) => v.replace(/\s*\n\s*/g, ' ').trim());
  return answerLines(questions, named).join('\n');
}
