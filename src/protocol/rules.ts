/**
 * The protocol's plain rules: limits, patterns, labels and the few checks both sides read. No zod here, so the Control
 * UI's first load can use them without the schemas (question.ts and the other schema modules build on these). The
 * checks of what a client sends are in request-rules.ts, which the UI's first load goes without.
 */
import type { MethodName } from './methods.ts';
import type { QuestionRecord } from './question.ts';
import type { Scope } from './scopes.ts';

/** A2: the scopes that list sessions and read their history; operator.questions alone sees questions, not sessions. */
export const SESSION_READER_SCOPES = ['operator.admin', 'operator.read', 'operator.write', 'operator.sessions.write', 'agent.run'] as const satisfies readonly Scope[];
/** A2, C1: the scopes that create a session (`sessions.create`); operator.read and operator.questions alone may not. */
export const SESSION_CREATOR_SCOPES = ['operator.admin', 'operator.write', 'operator.sessions.write', 'agent.run'] as const satisfies readonly Scope[];
/** A2, C2: the scopes that send a message (`chat.send`); operator.read and operator.questions alone may not. */
export const MESSAGE_SENDER_SCOPES = ['operator.admin', 'operator.write', 'operator.sessions.write'] as const satisfies readonly Scope[];

/** The wire field that makes a `choice` question take several options (Q2; answers/kinds/choice.ts reads it). */
export const SEVERAL_FIELD = 'multiSelect';

export const QUESTION_ID_PATTERN = /^[a-z][a-z0-9_]*$/;
export const HEADER_MAX = 12;
export const QUESTION_TEXT_MAX = 1000;
export const LABEL_MAX = 64;
export const DESCRIPTION_MAX = 200;
export const ANSWER_MAX = 4000;
export const DEFAULT_TIMEOUT_MS = 900_000;
export const MIN_TIMEOUT_MS = 30_000;
export const MAX_TIMEOUT_MS = 3_600_000;
export const QUESTION_URL_MAX = 2_000;
/** Q2/X2: preformatted text shown with a question (a command, a diff, a tool's input). */
export const QUESTION_DETAIL_MAX = 16_000;
export const MESSAGE_MAX = 32_000;
export const SESSION_TITLE_MAX = 200;
/** K1: a secret's name, as a shell variable would spell it. */
export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
export const SECRET_VALUE_MAX = 8000;
export const SECRET_DESCRIPTION_MAX = 1000;

/** Q12: the kinds of question; a question without `kind` is a `choice`. */
export const KIND_IDS = ['choice', 'approval', 'confirm', 'input', 'link'] as const;
export type KindId = (typeof KIND_IDS)[number];
/** Q12: the answers of the kinds that bring their own (a protocol-1 client sees them as a choice's options). */
export const CONFIRM_LABELS = ['Yes', 'No'] as const;
export const LINK_LABELS = ['Done', 'Decline'] as const;
/** Q12: the value types of an `input` question. */
export const INPUT_TYPES = ['string', 'number', 'integer', 'boolean', 'date', 'date-time', 'email', 'uri'] as const;
export type InputType = (typeof INPUT_TYPES)[number];
/** Q12: how an `input` question's value is checked (JSON Schema's words, as MCP elicitation sends them). */
export type InputSpec = {
  type: InputType;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  enum?: string[];
  default?: string | number | boolean;
  required?: boolean;
};

/** What a cut header ends with, within its `max` code points. */
export const HEADER_CUT_MARK = '…';

/** Q2/U16: an http or https address, whole, with a host. */
export function isLinkUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Reads a map by own property only, so an id such as `constructor` never finds what Object.prototype holds. */
export function own<T>(map: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return map != null && Object.hasOwn(map, key) ? map[key] : undefined;
}

export type AnswerProblem = { questionId: string; problem: string };

/** P7: the methods a client may send again after a reconnect, its first outcome unknown: reads, keyed writes and record-state-idempotent ones. */
export const RESENDABLE_METHODS: readonly MethodName[] = ['sessions.list', 'chat.send', 'chat.history', 'agent.subscribe', 'question.waitAnswer', 'question.resolve', 'question.get', 'question.list'];

/** P7: whether a request of `method` may be sent again after a reconnect. */
export function isResendable(method: MethodName): boolean {
  return RESENDABLE_METHODS.includes(method);
}
