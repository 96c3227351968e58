/**
 * "Put the cursor in the composer of the session about to open": New session asks for it when clicked (before the
 * session exists, so before any redirect to it can mount its page), and the next composer to mount takes it once.
 * What the person types meanwhile (focus is on the button, and the session may take a moment under load) is held
 * here and handed to that composer, Enter included, instead of being lost.
 * Features never import each other, so this small hand-off lives in lib/.
 */
export type ComposerHandOff = {
  /** Take keyboard focus on mount. */
  focus: boolean;
  /** Typed before the composer existed. */
  text: string;
  /** Enter was pressed after that text: send it once mounted. */
  send: boolean;
};

let wanted = false;
let typed = '';
let send = false;
let stopListening: (() => void) | null = null;

/** Keys typed outside any text field while the session is being made: characters, Backspace, Enter. */
function onKeyDown(event: KeyboardEvent): void {
  const target = event.target;
  if (target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select, [role="dialog"]'))) return;
  if (event.isComposing || event.keyCode === 229 || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === 'Enter' && !event.shiftKey) {
    if (typed.trim()) send = true;
  } else if (event.key === 'Backspace' && !send) {
    typed = typed.slice(0, -1);
  } else if (event.key.length === 1 && !send) {
    typed += event.key;
  } else return;
  // Held for the composer: not a second click on the focused button, nor a number key picking an option elsewhere.
  event.preventDefault();
  event.stopPropagation();
}

function listen(): void {
  stopListening?.();
  window.addEventListener('keydown', onKeyDown, true);
  stopListening = () => window.removeEventListener('keydown', onKeyDown, true);
}

function reset(): void {
  stopListening?.();
  stopListening = null;
  wanted = false;
  typed = '';
  send = false;
}

/** The next composer to mount takes focus, and what is typed until then. */
export function composerFocusRequested(): void {
  reset();
  wanted = true;
  if (typeof window !== 'undefined') listen();
}

/** Nothing will open after all (creating the session failed). */
export function composerFocusDropped(): void {
  reset();
}

let justTaken: ComposerHandOff | null = null;

/**
 * Once, for the first composer mounted after a request: focus, and what was typed meanwhile; clears it. A second call
 * in the same task (React StrictMode runs a state initialiser twice) gets the same hand-off, not an empty one.
 */
export function takeComposerHandOff(): ComposerHandOff {
  if (justTaken) return justTaken;
  const handOff = { focus: wanted, text: wanted ? typed : '', send: wanted && send };
  reset();
  if (handOff.focus) {
    justTaken = handOff;
    queueMicrotask(() => {
      justTaken = null;
    });
  }
  return handOff;
}
