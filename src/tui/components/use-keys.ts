import { useInput, useStdin, type Key } from 'ink';
import type { EventEmitter } from 'node:events';

/** Delete as terminals send it: CSI 3 ~, with modifiers (`\e[3;5~`, rxvt's `\e[3^`, kitty's `\e[3;1:1~`), or after Alt's ESC. */
const FORWARD_DELETE = /^\x1b{1,2}\[3(?:[;:][\d;:]*)?[~$^]$/;

/** The sequence each key was read as, per Ink instance: Ink's own key names Backspace (DEL) and Delete alike. */
const lastRead = new WeakMap<EventEmitter, { raw: string }>();

function readSequences(emitter: EventEmitter): { raw: string } {
  let read = lastRead.get(emitter);
  if (!read) {
    const seen = { raw: '' };
    // Ahead of every key handler (they are added behind it, and again on each render), so it always names the key at hand.
    emitter.prependListener('input', (raw: string) => void (seen.raw = raw));
    lastRead.set(emitter, seen);
    read = seen;
  }
  return read;
}

/**
 * Ink's `useInput`, with Backspace and Delete told apart: terminals send DEL (0x7f) for Backspace and Ink calls it
 * `delete`, as it calls the Delete key. Here `key.backspace` is the key that erases before the cursor (DEL, ^H, either
 * after Alt's ESC) and `key.delete` only the key that erases the character under it.
 */
export function useKeys(handler: (input: string, key: Key) => void, options?: { isActive?: boolean }): void {
  const { internal_eventEmitter: emitter } = useStdin();
  const read = emitter ? readSequences(emitter) : { raw: '' };
  useInput((input, key) => {
    if (!key.delete) return handler(input, key);
    const forward = FORWARD_DELETE.test(read.raw);
    handler(input, { ...key, delete: forward, backspace: !forward });
  }, options);
}
