import { useRef, useState, type FormEvent } from 'react';
import { Popover } from 'radix-ui';
import { SESSION_TITLE_MAX } from '../../../../protocol/rules.ts';
import { Button } from '../../../components/ui/button.tsx';
import { errorMessage } from '../../../lib/error-message.ts';
import { useRenameSession } from '../api/rename-session.ts';

const PencilIcon = () => (
  <svg width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d="M10.5 2.5l3 3L6 13H3v-3l7.5-7.5ZM9 4l3 3" />
  </svg>
);

/**
 * U15: "Rename session" (the pencil beside the title) opens the title for editing in place, over the title row;
 * Enter or Save stores it through sessions.update, Escape or Cancel leaves it, and focus returns to the pencil.
 */
export function RenameSession({ sessionKey, title }: { sessionKey: string; title: string }) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(title);
  const [rowHeight, setRowHeight] = useState(0);
  const trigger = useRef<HTMLButtonElement>(null);
  // The edit field lies over the title's row (its h1 and this button), not under the small pencil.
  const row = useRef({ getBoundingClientRect: () => (trigger.current?.closest('.session-title-row') ?? trigger.current)!.getBoundingClientRect() });
  const rename = useRenameSession();
  const openChanged = (next: boolean) => {
    if (next) {
      setRowHeight(row.current.getBoundingClientRect().height);
      setDraft(title);
      rename.reset();
    }
    setOpen(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = draft.trim();
    if (!next) return;
    rename.mutate({ sessionKey, title: next }, { onSuccess: () => setOpen(false) });
  };
  return (
    <Popover.Root open={open} onOpenChange={openChanged}>
      <Popover.Anchor virtualRef={row} />
      <Popover.Trigger asChild>
        <Button ref={trigger} size="sm" variant="ghost" className="rename-trigger btn-icon" aria-label="Rename session" title="Rename session">
          <PencilIcon />
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="rename-popover" side="bottom" align="start" sideOffset={-rowHeight} aria-label="Rename session" collisionPadding={8}>
          <form onSubmit={submit} className="rename-form">
            <input
              className="dialog-input rename-input"
              aria-label="Session title"
              value={draft}
              maxLength={SESSION_TITLE_MAX}
              onChange={(e) => setDraft(e.target.value)}
              onFocus={(e) => e.currentTarget.select()}
              autoFocus
              required
            />
            <Popover.Close asChild>
              <Button variant="ghost" size="sm">
                Cancel
              </Button>
            </Popover.Close>
            <Button type="submit" variant="primary" size="sm" disabled={rename.isPending || !draft.trim()}>
              Save
            </Button>
            {rename.isError && (
              <p className="inline-error rename-error" role="alert">
                Could not rename: {errorMessage(rename.error)}
              </p>
            )}
          </form>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
