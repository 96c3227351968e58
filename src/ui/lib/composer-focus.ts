/**
 * "Put the cursor in this session's composer when it opens": New session asks for it before the session page
 * exists, and the composer of that session takes it once, when it mounts. Features never import each other, so
 * this small hand-off lives in lib/.
 */
let wanted: string | null = null;

/** Asks the composer of `sessionKey` to take focus when it next mounts. */
export function composerFocusRequested(sessionKey: string): void {
  wanted = sessionKey;
}

/** True once for the session whose composer focus was requested; clears the request. */
export function takeComposerFocus(sessionKey: string): boolean {
  if (wanted !== sessionKey) return false;
  wanted = null;
  return true;
}
