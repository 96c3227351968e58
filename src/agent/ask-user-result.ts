/**
 * The parts of the ask_user contract (ask-user.ts) that need no schema: timeouts, the result shapes, the error for a
 * bad call. Apart so the hook, the approvals and the SDK's waits load them without ask_user's zod schemas and the
 * JSON Schema made from them (ask-user.ts re-exports all of it).
 */
import { AskdockError } from '../protocol/askdock-error.ts';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from '../protocol/rules.ts';
import type { SEVERAL_FIELD, severalField } from '../answers/kinds/choice.ts';
import type { Answers, FieldProblem, QuestionItem, QuestionStatus, ResolvedByView, RouteState } from '../protocol/index.ts';

export const DEFAULT_TIMEOUT_SECONDS = DEFAULT_TIMEOUT_MS / 1000;
export const MIN_TIMEOUT_SECONDS = MIN_TIMEOUT_MS / 1000;
export const MAX_TIMEOUT_SECONDS = MAX_TIMEOUT_MS / 1000;

/** A normalised question: trimmed, header cut, the several-choice field (kinds/choice.ts) present only when true. */
export type AskUserQuestion = Omit<QuestionItem, typeof SEVERAL_FIELD> & ReturnType<typeof severalField>;

/** A validated, normalised call. `timeoutGiven` matters for async questions, which only expire when asked to (Q3). */
export type AskUserCall = {
  questions: AskUserQuestion[];
  timeoutSeconds: number;
  timeoutGiven: boolean;
};

export type NoAnswerReason = 'skipped' | 'expired' | 'cancelled';

/** T2: what the tool returns. The outer `answers` is the protocol's envelope; the inner map is keyed by question id. */
/** E8: who answered a routed question, and its escalation trail, as the gateway tells it. */
export type AnsweredBy = { resolvedBy?: ResolvedByView; route?: RouteState };

/** `receipt` (L4): the gateway's signed receipt of the decision, when its audit log is signed. */
export type AskUserResult =
  | ({ status: 'answered'; answers: { answers: Answers }; receipt?: string } & AnsweredBy)
  | { status: 'no_answer'; reason: NoAnswerReason; receipt?: string };

/** T1/Q3: default 900 s, clamped to 30..3600. Expects an integer (validateAskUser checks that). */
export function clampTimeoutSeconds(seconds: number | undefined): number {
  if (seconds === undefined) return DEFAULT_TIMEOUT_SECONDS;
  return Math.min(MAX_TIMEOUT_SECONDS, Math.max(MIN_TIMEOUT_SECONDS, seconds));
}

/** The error every surface throws for a bad call: INVALID_REQUEST with the field-level problems in `details`. */
export function askUserError(problems: FieldProblem[]): AskdockError {
  const list = problems.map((p) => `${p.path}: ${p.problem}`).join('; ');
  return new AskdockError('INVALID_REQUEST', `invalid ask_user call: ${list}`, { details: problems });
}

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
