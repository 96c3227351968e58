import { z } from 'zod';
import { Answers, ResolvedBy, TerminalStatus } from './question.ts';

export const ERROR_CODES = [
  'INVALID_REQUEST',
  'METHOD_NOT_FOUND',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'SESSION_NOT_FOUND',
  'QUESTION_NOT_FOUND',
  'QUESTION_ALREADY_TERMINAL',
  'QUESTION_INVALID_ANSWER',
  'QUESTION_ID_IN_USE',
  'QUESTION_PENDING',
  'RUN_SUPERSEDED',
  'SECRET_NOT_FOUND',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNAVAILABLE',
] as const;
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
  FORBIDDEN: z.object({ method: z.string().optional(), needed: z.array(z.string()).optional(), id: z.string().optional() }),
  SESSION_NOT_FOUND: z.object({ sessionKey: z.string() }),
  QUESTION_NOT_FOUND: z.object({ id: z.string() }),
  QUESTION_ALREADY_TERMINAL: z.object({
    id: z.string(),
    status: TerminalStatus,
    answers: absentIfNull(Answers),
    resolvedBy: absentIfNull(ResolvedBy),
    reason: absentIfNull(z.string()),
  }),
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

/** Close codes the gateway uses (P3, P4, P6). */
export const CloseCode = {
  normal: 1000,
  goingAway: 1001,
  /** S6 slow consumers, frame floods, junk before connect. */
  policy: 1008,
  tooLarge: 1009,
  tickTimeout: 4000,
  unauthorized: 4001,
  noCommonVersion: 4002,
  handshakeTimeout: 4003,
} as const;

/** An error with a stable code, thrown by handlers and rethrown by clients. */
export class AskdockError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;
  readonly retryable?: boolean;
  readonly retryAfterMs?: number;
  constructor(code: ErrorCode, message: string, extra: Omit<ErrorShape, 'code' | 'message'> = {}) {
    super(message);
    this.name = 'AskdockError';
    this.code = code;
    this.details = extra.details;
    this.retryable = extra.retryable;
    this.retryAfterMs = extra.retryAfterMs;
  }
  toShape(): ErrorShape {
    const shape: ErrorShape = { code: this.code, message: this.message };
    if (this.details !== undefined) shape.details = this.details;
    if (this.retryable !== undefined) shape.retryable = this.retryable;
    if (this.retryAfterMs !== undefined) shape.retryAfterMs = this.retryAfterMs;
    return shape;
  }
  static from(shape: ErrorShape): AskdockError {
    return new AskdockError(shape.code, shape.message, shape);
  }
}

/** Turns zod issues into `{path, problem}` rows: `questions[1].options[2].label`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(root)';
}

export function zodProblems(error: z.ZodError, prefix: ReadonlyArray<PropertyKey> = []): FieldProblem[] {
  return error.issues.map((issue) => ({ path: formatPath([...prefix, ...issue.path]), problem: issue.message }));
}

export function invalidRequest(where: string, problems: FieldProblem[]): AskdockError {
  const list = problems.map((p) => `${p.path}: ${p.problem}`).join('; ');
  return new AskdockError('INVALID_REQUEST', `invalid ${where}: ${list}`, { details: problems });
}
