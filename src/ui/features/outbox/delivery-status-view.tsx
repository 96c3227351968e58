import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { canDiscard, canEdit, canRetry, DELIVERY_WORDS, isFinalFailure, type OutboxRow, type OutboxState } from '../../lib/outbox/machine.ts';
import './delivery-status.css';

/** The four words of U9, as the question's card shows them in its one status pill. */
export const DELIVERY_LABELS: Record<OutboxState, string> = DELIVERY_WORDS;

export type DeliveryStatusViewProps = {
  row: OutboxRow;
  onRetry(): void;
  onDiscard(): void;
  onEdit(text: string): Promise<unknown> | void;
};

/**
 * A question card's delivery actions (PRODUCT U9): Retry answer and Edit (not after a final refusal: the question
 * ended), Discard. The card's status pill says the state and why.
 */
export function DeliveryStatusView({ row, onRetry, onDiscard, onEdit }: DeliveryStatusViewProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const editing = draft !== null && canEdit(row);
  const retry = canRetry(row);
  // After a final refusal no text could arrive either: only Discard is left.
  const edit = canEdit(row) && !isFinalFailure(row) && !editing;
  const discard = canDiscard(row);
  if (!retry && !edit && !discard && !editing) return null;
  return (
    <div className="delivery-status" data-state={row.state} data-error-code={row.error?.code}>
      {retry && (
        <Button size="sm" onClick={onRetry}>
          Retry answer
        </Button>
      )}
      {edit && (
        <Button size="sm" onClick={() => setDraft(row.text)}>
          Edit
        </Button>
      )}
      {discard && (
        <Button size="sm" onClick={onDiscard}>
          Discard
        </Button>
      )}
      {editing && (
        <EditForm text={draft} onChange={setDraft} onCancel={() => setDraft(null)} onSave={onEdit} done={() => setDraft(null)} />
      )}
    </div>
  );
}

type EditFormProps = {
  text: string;
  onChange(text: string): void;
  onCancel(): void;
  onSave(text: string): Promise<unknown> | void;
  done(): void;
};

function EditForm({ text, onChange, onCancel, onSave, done }: EditFormProps) {
  const [saving, setSaving] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!text.trim() || saving) return;
    setSaving(true);
    try {
      await onSave(text);
      done();
    } finally {
      setSaving(false);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Ctrl/Cmd+Enter saves as in the dock; plain Enter adds a line; never while an IME is composing.
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.nativeEvent.isComposing) {
      e.preventDefault();
      e.currentTarget.form?.requestSubmit();
    }
    if (e.key === 'Escape') onCancel();
  };
  return (
    <form className="delivery-status-edit" onSubmit={submit}>
      <label>
        Edit answer
        <textarea
          value={text}
          rows={Math.min(8, text.split('\n').length + 1)}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
          autoFocus
        />
      </label>
      <Button type="submit" size="sm" variant="primary" disabled={!text.trim() || saving}>
        Save
      </Button>
      <Button size="sm" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </form>
  );
}
