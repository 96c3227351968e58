/**
 * The ask_user tool contract shared by the SDK, the MCP server, the demo agent and `askdock ask`: the result shapes with
 * their text for the model (T2). Its JSON Schema and description (T1, T4) are in ask-user-schema.ts; validation that
 * reports every field at fault (T3), normalisation and timeout clamping in ask-user-call.ts. Both are re-exported here.
 */
import type { QuestionItem } from '../protocol/index.ts';
import type { AskUserResult, NoAnswerReason } from './ask-user-result.ts';
import { answerLines, answersAsNamed } from '../answers/summary.ts';

export * from './ask-user-result.ts';
export { parseAskUser, validateAskUser, type AskUserInput, type Validation } from './ask-user-call.ts';
export { ASK_USER_DESCRIPTION, ASK_USER_INPUT_SCHEMA, ASK_USER_OUTPUT_SCHEMA, type JsonSchemaNode } from './ask-user-schema.ts';

export const ASK_USER_TOOL_NAME = 'ask_user';

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
