import { Text, type Key } from 'ink';
import { useRef, useState } from 'react';
import { splitBurst } from './key-burst.ts';
import { useKeys } from './use-keys.ts';
import { charCount, charEnd, charStart, erased, typedText } from './line-edit.ts';
import { terminalLine } from '../../lib/terminal-text.ts';

type Props = {
  value: string;
  onChange: (value: string) => void;
  onSubmit: (value: string) => void;
  onEscape?: () => void;
  active?: boolean;
  /**
   * Whether the key at hand is the field's, asked for each key: a parent that moves the highlight within one read
   * (a ref it keeps) gives the keys after ↑ to the field and none before; default, every key while `active`.
   */
  owns?: () => boolean;
  placeholder?: string;
  /** W4: a secret's field: every character shows as a dot. */
  mask?: boolean;
  /** W4: line breaks inside a paste are part of the value (a PEM key); only an Enter pressed on its own submits. */
  breaksAsText?: boolean;
};


/** A paste may carry anything: shown on one line, cleaned for the terminal. */
const shown = (t: string, mask?: boolean) => (mask ? '•'.repeat(charCount(t)) : terminalLine(t));

/**
 * A one-line field: typing, paste, ←/→, Home/End, Backspace (Alt+Backspace a word, Ctrl+U the line), Delete; Alt+Enter adds a
 * line break (PT3 replies); Enter submits. The cursor moves and erases by what a person sees as one character.
 */
export function TextInput({ value, onChange, onSubmit, onEscape, active = true, owns, placeholder, mask, breaksAsText }: Props) {
  const [, rendered] = useState(0);
  // Keys of one burst arrive before React renders again: the handler works on this ref, never on stale props.
  const live = useRef({ value, cursor: value.length, seen: value });
  if (live.current.seen !== value) live.current = { value, cursor: Math.min(live.current.cursor, value.length), seen: value };
  const edit = (next: string, cursor: number) => {
    // `seen` follows the edit: a parent that sets another value before rendering this one (Enter in the same burst
    // clears the composer) then differs from it, and the field takes the parent's value.
    live.current = { value: next, cursor, seen: next };
    onChange(next);
  };
  const move = (cursor: number) => {
    live.current.cursor = cursor;
    rendered((n) => n + 1);
  };
  const onKey = (input: string, key: Key) => {
    const { value: v } = live.current;
    const at = Math.min(live.current.cursor, v.length);
    if (key.escape) return onEscape?.();
    if (key.return && key.meta) return edit(v.slice(0, at) + '\n' + v.slice(at), at + 1);
    if (key.return) return onSubmit(v);
    if (key.leftArrow) return move(charStart(v, at));
    if (key.rightArrow) return move(charEnd(v, at));
    if (key.home || (key.ctrl && input === 'a')) return move(0);
    if (key.end || (key.ctrl && input === 'e')) return move(v.length);
    const erase = erased(v, at, input, key);
    if (erase) return erase.value === v ? undefined : edit(erase.value, erase.cursor);
    if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.tab || !input) return;
    const typed = typedText(input);
    if (!typed) return;
    edit(v.slice(0, at) + typed + v.slice(at), at + typed.length);
  };
  useKeys((input, key) => {
    for (const k of splitBurst(input, key, { breaksAsText })) if (!owns || owns()) onKey(k.input, k.key);
  }, { isActive: active });
  const at = Math.min(live.current.cursor, value.length);
  const next = charEnd(value, at);
  if (!value && placeholder) {
    return (
      <Text>
        <Text inverse> </Text>
        <Text dimColor>{placeholder}</Text>
      </Text>
    );
  }
  return (
    <Text>
      {shown(value.slice(0, at), mask)}
      <Text inverse>{at < value.length ? shown(value.slice(at, next), mask) : ' '}</Text>
      {shown(value.slice(next), mask)}
    </Text>
  );
}
