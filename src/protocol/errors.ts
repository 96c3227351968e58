import * as z from 'zod';
import { Answers, ResolvedBy, TerminalStatus } from './question.ts';
import { ERROR_CODES, formatPath } from './askdock-error.ts';

export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** One field at fault: `path` like `questions[1].options[2].label`, `problem` in words. */
export const FieldProblem = z.object({ path: z.string(), problem: z.string() });
export type FieldProblem = z.infer<typeof FieldProblem>;

export const ErrorShape = z.object({
  code: ErrorCode,
  message: z.string(),
  details: z.unknown().optional(),
  retryable: z.boolean().optional(),
  retryAfterMs: z.number().int().nonnegative().optional(),
});
export type ErrorShape = z.infer<typeof ErrorShape>;

const AnswerProblemShape = z.object({ questionId: z.string(), problem: z.string() });
// Stored records may carry null for what they lack; readers get such fields absent.
const absentIfNull = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/**
 * What `details` holds, when present, per error code (a code not listed has no fixed shape). The gateway checks every refusal it sends
 * against this in its frame checks; clients read details through `errorDetails`.
 */
export const ErrorDetails = {
  INVALID_REQUEST: z.union([z.array(FieldProblem), z.object({ protocol: z.number().int() })]),
  METHOD_NOT_FOUND: z.object({ method: z.string() }),
  FORBIDDEN: z.object({
    method: z.string().optional(),
    needed: z.array(z.string()).optional(),
    id: z.string().optional(),
    /** RU1: why an identity or a run may not ask. */
    reason: z.enum(['denied', 'non-primary-run']).optional(),
    runId: z.string().optional(),
    parentRunId: z.string().optional(),
  }),
  SESSION_NOT_FOUND: z.object({ sessionKey: z.string() }),
  QUESTION_NOT_FOUND: z.object({ id: z.string() }),
  QUESTION_ALREADY_TERMINAL: z.union([
    z.object({
      id: z.string(),
      status: TerminalStatus,
      answers: absentIfNull(Answers),
      resolvedBy: absentIfNull(ResolvedBy),
      reason: absentIfNull(z.string()),
    }),
    // K1: a secret request's outcome, by name (never its value).
    z.object({ id: z.string(), status: z.enum(['stored', 'skipped', 'expired', 'cancelled']), name: z.string() }),
  ]),
  QUESTION_INVALID_ANSWER: z.array(AnswerProblemShape),
  QUESTION_ID_IN_USE: z.object({ id: z.string() }),
  QUESTION_PENDING: z.object({ id: z.string() }),
} satisfies Partial<Record<ErrorCode, z.ZodType>>;
type DetailedCode = keyof typeof ErrorDetails;
export type ErrorDetails<C extends DetailedCode> = z.output<(typeof ErrorDetails)[C]>;

/** The details of `error` when it carries code `code` and details of that code's shape; otherwise null. */
export function errorDetails<C extends DetailedCode>(error: unknown, code: C): ErrorDetails<C> | null {
  const e = error as { code?: unknown; details?: unknown } | null;
  if (e?.code !== code) return null;
  const parsed = ErrorDetails[code].safeParse(e.details);
  return parsed.success ? (parsed.data as ErrorDetails<C>) : null;
}

/** Why `shape.details` does not fit its code's schema; null when it fits, is absent, or the code has no schema. */
export function errorDetailsProblem(shape: ErrorShape): string | null {
  const schema = (ErrorDetails as Partial<Record<ErrorCode, z.ZodType>>)[shape.code];
  if (!schema || shape.details === undefined) return null;
  const parsed = schema.safeParse(shape.details);
  return parsed.success ? null : `${shape.code} details: ${parsed.error.message}`;
}

/** Turns zod issues into `{path, problem}` rows. */
export function zodProblems(error: z.ZodError, prefix: ReadonlyArray<PropertyKey> = []): FieldProblem[] {
  return error.issues.map((issue) => ({ path: formatPath([...prefix, ...issue.path]), problem: issue.message }));
}

