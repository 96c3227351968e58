import type { Key } from 'ink';

// What a person sees as one character: an emoji with its joiners and skin tone, a letter with its accents.
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const words = new Intl.Segmenter(undefined, { granularity: 'word' });

/** Where the character before `at` starts (`at` itself at the start). */
export function charStart(text: string, at: number): number {
  return at <= 0 ? 0 : graphemes.segment(text).containing(Math.min(at, text.length) - 1)!.index;
}

/** Where the character at `at` ends (the end of the text at its end). */
export function charEnd(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const { index, segment } = graphemes.segment(text).containing(at)!;
  return index + segment.length;
}

/** How many characters a person sees in `text`. */
export const charCount = (text: string): number => [...graphemes.segment(text)].length;

/** Where the word before `at` starts, as Alt+Backspace erases in a shell: back over spaces and punctuation, then over one word. */
export function wordStart(text: string, at: number): number {
  const parts = [...words.segment(text.slice(0, at))];
  let i = parts.length - 1;
  while (i >= 0 && !parts[i].isWordLike) i--;
  return i >= 0 ? parts[i].index : 0;
}

/** C0 and C1 controls but a tab and a line break. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * What a key or a paste types into a field: a paste or a burst may carry controls (a BEL, a copied escape sequence; its
 * erase keys came apart in splitBurst); the text keeps its line breaks and tabs, never a control that would go on to
 * the agent and every other screen.
 */
export const typedText = (input: string): string => input.replace(/\r\n?/g, '\n').replace(CONTROLS, '');

export type LineEdit = { value: string; cursor: number };

/**
 * The erase keys of a line at the cursor `at`: Backspace one character before it, Alt+Backspace (which a terminal sends
 * as ESC and DEL) one word, Ctrl+U everything before it; Delete the character under it. Keys as `useKeys` names them.
 * Null for any other key.
 */
export function erased(value: string, at: number, input: string, key: Pick<Key, 'backspace' | 'delete' | 'meta' | 'ctrl'>): LineEdit | null {
  if (key.delete) return { value: value.slice(0, at) + value.slice(charEnd(value, at)), cursor: at };
  let from: number;
  if (key.backspace) from = key.meta ? wordStart(value, at) : charStart(value, at);
  else if (key.ctrl && input === 'u') from = 0;
  else return null;
  return { value: value.slice(0, from) + value.slice(at), cursor: from };
}
