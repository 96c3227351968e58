import type { Key } from 'ink';

/** Erase keys as a terminal sends them (Backspace as DEL or ^H, Ctrl+U), for when they come inside a burst. */
const ERASE = new Map<string, Partial<Key>>([
  ['\x7f', { backspace: true }],
  ['\b', { backspace: true }],
  ['\x15', { ctrl: true }],
]);
// ^H as \x08: in a pattern `\b` is a word boundary, not the key.
const WITH_ENTER = /(\r|\x7f|\x08|\x15)/;
const ERASE_ONLY = /(\x7f|\x08|\x15)/;

type Options = {
  /** A secret's field (W4): a line break inside a paste is part of it (a PEM key); only an Enter on its own submits. */
  breaksAsText?: boolean;
};

/**
 * A burst of keys can reach Ink as one chunk (`1\r`, `deploy\r` from a fast typist, a script or tmux; `deploy⌫⌫` or
 * a Ctrl+U typed fast): split it into the keys it holds, so every key is seen once, in order, and Enter is still Enter
 * and an erase still erases.
 */
export function splitBurst(input: string, key: Key, { breaksAsText = false }: Options = {}): { input: string; key: Key }[] {
  const keys = breaksAsText ? ERASE_ONLY : WITH_ENTER;
  if (input.length <= 1 || key.ctrl || key.meta || !keys.test(input)) return [{ input, key }];
  const typed = { ...key, return: false, delete: false, backspace: false };
  return input
    .split(keys)
    .filter((part) => part !== '')
    .map((part) => {
      if (part === '\r' && !breaksAsText) return { input: '', key: { ...typed, return: true } };
      const erase = ERASE.get(part);
      // Ink names Ctrl+U by its letter.
      return erase ? { input: part === '\x15' ? 'u' : '', key: { ...typed, ...erase } } : { input: part, key: typed };
    });
}

/** Like `splitBurst`, but down to single characters: the prompt reads each digit as its own key. */
export function splitKeys(input: string, key: Key): { input: string; key: Key }[] {
  return splitBurst(input, key).flatMap((k) =>
    k.input.length > 1 && !k.key.ctrl && !k.key.meta ? Array.from(k.input, (c) => ({ input: c, key: k.key })) : [k],
  );
}
