/**
 * Error codes, close codes and the error class every side throws and rethrows. No zod here (the shapes are in
 * errors.ts), so the Control UI's first load can use them without the schemas.
 */
import type { ErrorCode, ErrorShape, FieldProblem } from './errors.ts';

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
  'PUSH_SUBSCRIPTION_NOT_FOUND',
  'PUSH_ENDPOINT_TAKEN',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNAVAILABLE',
  'POLICY_INVALID',
  'ROUTING_INVALID',
  'AUDIT_KEY_MISSING',
] as const;

/** Close codes the gateway uses (P3, P4, P6). */
export const CloseCode = {
  normal: 1000,
  goingAway: 1001,
  /** S6 slow consumers, frame floods, junk before connect. */
  policy: 1008,
  tooLarge: 1009,
  /** The gateway failed while admitting a connection (its store). */
  internal: 1011,
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

/** A field's path as the `{path, problem}` rows spell it: `questions[1].options[2].label`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(root)';
}

export function invalidRequest(where: string, problems: FieldProblem[]): AskdockError {
  const list = problems.map((p) => `${p.path}: ${p.problem}`).join('; ');
  return new AskdockError('INVALID_REQUEST', `invalid ${where}: ${list}`, { details: problems });
}
