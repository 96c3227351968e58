import { Text, useInput } from 'ink';
import { useRef, useState } from 'react';

type Props = {
  value: string;
  onChange: (value: string) => void;
  onSubmit: (value: string) => void;
  onEscape?: () => void;
  /** Keys the field does not take (e.g. `/` commands are typed, but `[` is not when the caller says so). */
  active?: boolean;
  placeholder?: string;
};

/** A one-line field: typing, paste, ←/→, Home/End, Backspace; Alt+Enter adds a line break (PT3 replies); Enter submits. */
export function TextInput({ value, onChange: change, onSubmit, onEscape, active = true, placeholder }: Props) {
  const [cursor, setCursorState] = useState(value.length);
  // Keys of one burst arrive before React renders again: the handler works on refs, never on stale props.
  const live = useRef({ value, cursor: value.length, seen: value });
  if (live.current.seen !== value) live.current = { value, cursor: Math.min(live.current.cursor, value.length), seen: value };
  const at = Math.min(live.current.cursor, value.length);
  useInput(
    (input, key) => {
      const { value } = live.current;
      const at = Math.min(live.current.cursor, value.length);
      const onChange = (next: string) => {
        live.current.value = next;
        change(next);
      };
      const setCursor = (n: number) => {
        live.current.cursor = n;
        setCursorState(n);
      };
      if (key.escape) return onEscape?.();
      if (key.return && key.meta) {
        onChange(value.slice(0, at) + '\n' + value.slice(at));
        return setCursor(at + 1);
      }
      if (key.return) return onSubmit(value);
      if (key.leftArrow) return setCursor(Math.max(0, at - 1));
      if (key.rightArrow) return setCursor(Math.min(value.length, at + 1));
      if (key.home || (key.ctrl && input === 'a')) return setCursor(0);
      if (key.end || (key.ctrl && input === 'e')) return setCursor(value.length);
      // Terminals send DEL (0x7f) for Backspace, which arrives as `delete`: both erase to the left.
      if (key.backspace || key.delete) {
        if (at === 0) return;
        onChange(value.slice(0, at - 1) + value.slice(at));
        return setCursor(at - 1);
      }
      if (key.ctrl && input === 'u') {
        onChange(value.slice(at));
        return setCursor(0);
      }
      if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.tab || !input) return;
      const typed = input.replace(/\r\n?/g, '\n');
      onChange(value.slice(0, at) + typed + value.slice(at));
      setCursor(at + typed.length);
    },
    { isActive: active },
  );
  if (!value && placeholder) {
    return (
      <Text>
        <Text inverse> </Text>
        <Text dimColor>{placeholder}</Text>
      </Text>
    );
  }
  const shown = (t: string) => t.replace(/\n/g, '↵');
  return (
    <Text>
      {shown(value.slice(0, at))}
      <Text inverse>{at < value.length ? shown(value[at]) : ' '}</Text>
      {shown(value.slice(at + 1))}
    </Text>
  );
}
