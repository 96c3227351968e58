import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { errorMessage } from '../../../lib/error-message.ts';

/** Slash commands the composer hands to the app instead of sending (U1: `/question` reopens the dock). */
export const COMPOSER_COMMANDS = ['/question'] as const;

export type ComposerProps = {
  onSend: (text: string) => Promise<void> | void;
  onCommand?: (command: string) => void;
  /** Runs before the composer's own keys; calling preventDefault() keeps Enter from sending. */
  onKeyDown?: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
  disabled?: boolean;
  /** Focus the message box on mount. */
  autoFocus?: boolean;
  /** Text already typed for this composer before it mounted (New session's hand-off); the cursor goes after it. */
  initialText?: string;
  /** Send `initialText` once mounted, through the same path as Enter. */
  sendInitial?: boolean;
};

function commandOf(text: string): string | undefined {
  const trimmed = text.trim();
  return COMPOSER_COMMANDS.find((command) => command === trimmed);
}

/** The message box: Enter sends, Shift+Enter adds a line, IME composition never sends. */
export function Composer({ onSend, onCommand, onKeyDown, disabled = false, autoFocus = false, initialText = '', sendInitial = false }: ComposerProps) {
  const [text, setText] = useState(initialText);
  const formRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  // Mount only: what was typed before the composer existed is sent as Enter would, or waits with the cursor after it.
  useEffect(() => {
    if (!initialText) return;
    if (sendInitial) formRef.current?.requestSubmit();
    else inputRef.current?.setSelectionRange(initialText.length, initialText.length);
  }, []);
  const [error, setError] = useState<string | null>(null);
  const hintId = useId();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = text;
    const command = commandOf(value);
    if (command) {
      setText('');
      onCommand?.(command);
      return;
    }
    if (!value.trim() || disabled) return;
    setText('');
    setError(null);
    try {
      await onSend(value);
    } catch (err) {
      // Give the words back unless something new was typed meanwhile.
      setText((current) => (current ? current : value));
      setError(`Not sent: ${errorMessage(err)}`);
    }
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    onKeyDown?.(event);
    if (event.defaultPrevented || event.key !== 'Enter' || event.shiftKey) return;
    // Enter that confirms an IME candidate belongs to the input method, not to us (229 covers older Safari).
    if (event.nativeEvent.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    // One path for keyboard and mouse: the form's submit, as the Send button does.
    event.currentTarget.form?.requestSubmit();
  };

  return (
    <form ref={formRef} className="composer" onSubmit={submit}>
      <textarea
        ref={inputRef}
        className="composer-input"
        aria-label="Message"
        aria-describedby={hintId}
        placeholder="Message the agent"
        rows={1}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={handleKeyDown}
        autoFocus={autoFocus}
      />
      <Button type="submit" variant="primary" disabled={disabled || !text.trim()}>
        Send
      </Button>
      <p id={hintId} className="composer-hint">
        <kbd>Enter</kbd> sends, <kbd>Shift</kbd>+<kbd>Enter</kbd> adds a line, <kbd>/question</kbd> opens questions
      </p>
      {error && (
        <p className="inline-error composer-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
