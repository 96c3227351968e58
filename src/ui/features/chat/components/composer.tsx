import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
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
};

function commandOf(text: string): string | undefined {
  const trimmed = text.trim();
  return COMPOSER_COMMANDS.find((command) => command === trimmed);
}

/** The message box: Enter sends, Shift+Enter adds a line, IME composition never sends. */
export function Composer({ onSend, onCommand, onKeyDown, disabled = false, autoFocus = false }: ComposerProps) {
  const [text, setText] = useState('');
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
    <form className="composer" onSubmit={submit}>
      <textarea
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
