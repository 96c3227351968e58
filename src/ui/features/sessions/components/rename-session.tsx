import { useState, type FormEvent } from 'react';
import { Dialog } from 'radix-ui';
import { SESSION_TITLE_MAX } from '../../../../protocol/rules.ts';
import { Button } from '../../../components/ui/button.tsx';
import { errorMessage } from '../../../lib/error-message.ts';
import { useRenameSession } from '../api/rename-session.ts';

/** U15: "Rename session" opens a small dialog with the title, saved through sessions.update. */
export function RenameSession({ sessionKey, title }: { sessionKey: string; title: string }) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(title);
  const rename = useRenameSession();
  const openChanged = (next: boolean) => {
    if (next) {
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
    <Dialog.Root open={open} onOpenChange={openChanged}>
      <Dialog.Trigger asChild>
        <Button size="sm" variant="ghost" className="rename-trigger">
          Rename session
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">Rename session</Dialog.Title>
          <form onSubmit={submit} className="dialog-form">
            <label className="dialog-label">
              Session title
              <input
                className="dialog-input"
                value={draft}
                maxLength={SESSION_TITLE_MAX}
                onChange={(e) => setDraft(e.target.value)}
                autoFocus
                required
              />
            </label>
            {rename.isError && (
              <p className="inline-error" role="alert">
                Could not rename: {errorMessage(rename.error)}
              </p>
            )}
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <Button variant="ghost">Cancel</Button>
              </Dialog.Close>
              <Button type="submit" variant="primary" disabled={rename.isPending || !draft.trim()}>
                Save
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
