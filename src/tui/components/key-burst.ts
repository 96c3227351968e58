import type { Key } from 'ink';

/**
 * A burst of keys can reach Ink as one chunk (`1\r`, `deploy\r` from a fast typist, a script or tmux): split it into
 * the keys it holds, so every key is seen once, in order, and Enter is still Enter.
 */
export function splitBurst(input: string, key: Key): { input: string; key: Key }[] {
  if (input.length <= 1 || key.ctrl || key.meta || !input.includes('\r')) return [{ input, key }];
  const out: { input: string; key: Key }[] = [];
  const parts = input.split('\r');
  parts.forEach((text, i) => {
    if (text) out.push({ input: text, key: { ...key, return: false } });
    if (i < parts.length - 1) out.push({ input: '', key: { ...key, return: true } });
  });
  return out;
}

/** Like `splitBurst`, but down to single characters: the prompt reads each digit as its own key. */
export function splitKeys(input: string, key: Key): { input: string; key: Key }[] {
  return splitBurst(input, key).flatMap((k) =>
    k.input.length > 1 && !k.key.ctrl && !k.key.meta ? Array.from(k.input, (c) => ({ input: c, key: k.key })) : [k],
  );
}
