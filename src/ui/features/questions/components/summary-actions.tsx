import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import type { Outcome } from '../lib/placement.ts';
import { dockUiActions } from '../stores/dock-ui.ts';
import { skipActions, undoOpen, UNDO_WINDOW_MS } from '../stores/skips.ts';

type Props = { recordId: string; sessionKey: string; outcome: Outcome; skippedAtMs: number | undefined; retiredAtMs: number | undefined };

/** Whether Undo is still offered for a skip made at `skippedAtMs`; turns false by itself when the window closes. */
function useUndoWindow(skippedAtMs: number | undefined): boolean {
  const [open, setOpen] = useState(() => skippedAtMs !== undefined && undoOpen({ atMs: skippedAtMs }, Date.now()));
  useEffect(() => {
    if (skippedAtMs === undefined) return setOpen(false);
    const left = skippedAtMs + UNDO_WINDOW_MS - Date.now();
    setOpen(left > 0);
    if (left <= 0) return;
    const timer = setTimeout(() => setOpen(false), left);
    return () => clearTimeout(timer);
  }, [skippedAtMs]);
  return open;
}

/** Answer on a retired reminder (U8); Undo for a few seconds after an async skip, which puts it back with its draft. */
export function SummaryActions({ recordId, sessionKey, outcome, skippedAtMs, retiredAtMs }: Props) {
  const undoable = useUndoWindow(outcome === 'Skipped' ? skippedAtMs : undefined);
  if (outcome === 'No longer pending')
    return (
      <Button variant="secondary" size="sm" onClick={() => dockUiActions().reminderReopened(sessionKey, recordId, { retiredAtMs })}>
        Answer
      </Button>
    );
  if (!undoable) return null;
  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={() => {
        skipActions().skipUndone(recordId);
        dockUiActions().draftReturned(sessionKey, recordId, { retiredAtMs });
      }}
    >
      Undo
    </Button>
  );
}
