/** A readable sentence from whatever a request rejected with. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'something went wrong';
}

/** The gateway's stable error code (PROTOCOL "Error codes"), when there is one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A refusal that asking again cannot change: the scope is missing, or the thing does not exist for this identity (A4, A5). */
export function isSettledRefusal(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'FORBIDDEN' || (code?.endsWith('_NOT_FOUND') ?? false);
}
