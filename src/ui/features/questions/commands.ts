import type { KeyboardEvent as ReactKeyboardEvent } from 'react';

/** What the commands act on; built by the dock's request panel or the link page's form, read fresh on every key and click. */
export type CommandContext = {
  stacked: boolean;
  step: number;
  questionCount: number;
  requestCount: number;
  busy: boolean;
  /** E3: whether this identity may answer (a routed question waits for others): without it nothing picks, submits or skips. */
  mayAnswer: boolean;
  back(): void;
  next(): void;
  submit(): void;
  skip(): void;
  /** Absent where there is nothing to collapse into (the link page). */
  collapse?: () => void;
  previousRequest(): void;
  nextRequest(): void;
  /** Picks option `index` (0-based) of the question holding `target`, or of the current step. */
  pick(index: number, target: EventTarget | null): void;
};

export type CommandId = 'back' | 'next' | 'submit' | 'skip' | 'collapse' | 'previousRequest' | 'nextRequest' | 'pick';

export type DockCommand = {
  id: CommandId;
  label: string;
  /** Keys for the `<kbd>` hint, per platform. */
  keys?: (mac: boolean) => string[];
  /** For `aria-keyshortcuts`. */
  shortcut?: (mac: boolean) => string;
  keyTest?: (e: KeyboardEvent) => boolean;
  enabled: (ctx: CommandContext) => boolean;
  run: (ctx: CommandContext, e?: KeyboardEvent) => void;
};

export const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad|iPod/.test(navigator.platform || navigator.userAgent);

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'number', 'date', 'datetime-local', 'month', 'time', 'week']);

export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(target.type);
}

export function isChoice(target: EventTarget | null): boolean {
  const role = target instanceof HTMLElement ? target.getAttribute('role') : null;
  return role === 'radio' || role === 'checkbox';
}

/** Links, file pickers and action buttons keep their own keys (U3). */
export function isActionTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement) || isChoice(target)) return false;
  if (target instanceof HTMLInputElement) return ['file', 'button', 'submit', 'reset', 'image'].includes(target.type);
  return target.matches('a[href], button, summary, [role="button"], [role="link"], [role="menuitem"], [role="tab"]');
}

/** Next and Submit share Ctrl/⌘+Enter: whichever is enabled takes it. */
const continueBinding: Pick<DockCommand, 'keys' | 'shortcut' | 'keyTest'> = {
  keys: (mac) => (mac ? ['⌘', 'Enter'] : ['Ctrl', 'Enter']),
  shortcut: (mac) => (mac ? 'Meta+Enter' : 'Control+Enter'),
  keyTest: (e) => e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && !isActionTarget(e.target),
};
const stepping = (ctx: CommandContext) => !ctx.stacked && ctx.questionCount > 1;

const back: DockCommand = {
  id: 'back',
  label: 'Back',
  enabled: (ctx) => stepping(ctx) && ctx.step > 0 && !ctx.busy,
  run: (ctx) => ctx.back(),
};
const next: DockCommand = {
  id: 'next',
  label: 'Next',
  ...continueBinding,
  enabled: (ctx) => stepping(ctx) && ctx.step < ctx.questionCount - 1 && !ctx.busy,
  run: (ctx) => ctx.next(),
};
const submit: DockCommand = {
  id: 'submit',
  label: 'Submit',
  ...continueBinding,
  enabled: (ctx) => (!stepping(ctx) || ctx.step === ctx.questionCount - 1) && !ctx.busy && ctx.mayAnswer,
  run: (ctx) => ctx.submit(),
};
const skip: DockCommand = { id: 'skip', label: 'Skip', enabled: (ctx) => !ctx.busy && ctx.mayAnswer, run: (ctx) => ctx.skip() };
const collapse: DockCommand = {
  id: 'collapse',
  label: 'Collapse questions',
  keys: () => ['Esc'],
  shortcut: () => 'Escape',
  keyTest: (e) => e.key === 'Escape' && !e.ctrlKey && !e.metaKey && !e.altKey && !e.shiftKey,
  enabled: (ctx) => ctx.collapse !== undefined,
  run: (ctx) => ctx.collapse?.(),
};
const previousRequest: DockCommand = {
  id: 'previousRequest',
  label: 'Previous request',
  enabled: (ctx) => ctx.requestCount > 1,
  run: (ctx) => ctx.previousRequest(),
};
const nextRequest: DockCommand = {
  id: 'nextRequest',
  label: 'Next request',
  enabled: (ctx) => ctx.requestCount > 1,
  run: (ctx) => ctx.nextRequest(),
};
const pick: DockCommand = {
  id: 'pick',
  label: 'Choose option',
  // Digits never reach a text field's typed text, and modified digits stay the browser's.
  keyTest: (e) => /^[1-9]$/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey && !isTextField(e.target),
  enabled: (ctx) => !ctx.busy && ctx.mayAnswer,
  run: (ctx, e) => {
    if (e) ctx.pick(Number(e.key) - 1, e.target);
  },
};

export const commands = { back, next, submit, skip, collapse, previousRequest, nextRequest, pick } as const;
const keyed = [pick, next, submit, collapse];

/** The `<kbd>` hint and `aria-keyshortcuts` for option n (1-based). */
export const optionKey = (n: number): string | undefined => (n >= 1 && n <= 9 ? String(n) : undefined);

function isComposing(e: ReactKeyboardEvent): boolean {
  // Safari reports the key that ends a composition with keyCode 229 after isComposing is already false.
  return e.nativeEvent.isComposing || e.keyCode === 229;
}

/** Runs the first enabled command whose key matches; returns whether one ran. */
export function dispatchKey(e: ReactKeyboardEvent, ctx: CommandContext): boolean {
  if (isComposing(e)) return false;
  // Radix cancels Enter on radios and checkboxes to stop native form submits, which is no claim on Ctrl+Enter.
  if (e.defaultPrevented && !isChoice(e.target)) return false;
  const native = e.nativeEvent;
  for (const command of keyed) {
    if (!command.keyTest?.(native) || !command.enabled(ctx)) continue;
    e.preventDefault();
    command.run(ctx, native);
    return true;
  }
  return false;
}
