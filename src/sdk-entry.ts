/**
 * The package's entry (`import { connect } from 'askdock'`): the Node SDK for agents, compiled to `dist-sdk/` by
 * `npm run build:sdk` (run by `prepack`) with its type declarations.
 */
export { Agent, abortError, connect, isSuperseded, type AskOptions, type AsyncAskOptions, type ConnectOptions, type UserMessage } from './agent/sdk.ts';
export type { AskUserInput, AskUserQuestion, AskUserResult, NoAnswerReason, Validation } from './agent/ask-user.ts';
/** T1, T2, T4: the tool for any other LLM stack: its name, description, JSON Schemas, the check of a call and the result's text. */
export {
  ASK_USER_DESCRIPTION,
  ASK_USER_INPUT_SCHEMA,
  ASK_USER_OUTPUT_SCHEMA,
  ASK_USER_TOOL_NAME,
  resultText,
  validateAskUser,
} from './agent/ask-user.ts';
export type { SecretInput, SecretOptions, SecretResult } from './agent/sdk-secrets.ts';
export type { OwnSessionOptions } from './agent/own-session.ts';
export { AskdockError } from './protocol/index.ts';
