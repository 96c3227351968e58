import { useState, type FormEvent } from 'react';
import { Popover } from 'radix-ui';
import { Button } from '../../../components/ui/button.tsx';
import { useDraftsStore } from '../../questions/stores/drafts.ts';
import { useHandoff } from '../api/route-actions.ts';

/** The drafts typed so far, per question item, as question.handoff carries them (E6). */
function draftsOf(recordId: string): Record<string, string[]> | undefined {
  const draft = Object.hasOwn(useDraftsStore.getState().drafts, recordId) ? useDraftsStore.getState().drafts[recordId] : undefined;
  if (!draft) return undefined;
  const out: Record<string, string[]> = {};
  for (const [item, d] of Object.entries(draft.items)) out[item] = d.other.trim() ? [...d.chosen, d.other] : d.chosen;
  return out;
}

/** E6: "Hand off…": a target (a person or a group) and a note; the target gets the drafts typed here. */
export function HandoffPopover({ recordId }: { recordId: string }) {
  const [open, setOpen] = useState(false);
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const handoff = useHandoff(recordId);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    e.stopPropagation();
    const target = to.trim();
    if (!target) return;
    const drafts = draftsOf(recordId);
    handoff.mutate(
      { to: target.includes(':') ? target : `identity:${target}`, ...(note.trim() ? { note: note.trim() } : {}), ...(drafts ? { drafts } : {}) },
      { onSuccess: () => setOpen(false) },
    );
  };
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <Button size="sm" variant="ghost">
          Hand off…
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="rt-popover" sideOffset={6} align="end" onKeyDown={(e) => e.stopPropagation()}>
          <form onSubmit={submit} aria-label="Hand off">
            <label className="rt-field">
              To (a person, or group:&lt;name&gt;)
              <input value={to} onChange={(e) => setTo(e.target.value)} required autoComplete="off" />
            </label>
            <label className="rt-field">
              Note
              <textarea value={note} onChange={(e) => setNote(e.target.value)} rows={2} maxLength={2000} />
            </label>
            {handoff.error && <p role="alert" className="rt-error">Not handed off: {handoff.error.message}</p>}
            <Button type="submit" variant="primary" size="sm" disabled={handoff.isPending}>
              Hand off
            </Button>
          </form>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
