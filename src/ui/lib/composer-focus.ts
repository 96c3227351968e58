/**
 * "Put the cursor in the composer of the session about to open": New session asks for it when clicked (before the
 * session exists, so before any redirect to it can mount its page), and the next composer to mount takes it once.
 * Features never import each other, so this small hand-off lives in lib/.
 */
let wanted = false;

/** The next composer to mount takes focus. */
export function composerFocusRequested(): void {
  wanted = true;
}

/** Nothing will open after all (creating the session failed). */
export function composerFocusDropped(): void {
  wanted = false;
}

/** True once, for the first composer mounted after a request; clears it. */
export function takeComposerFocus(): boolean {
  const take = wanted;
  wanted = false;
  return take;
}
