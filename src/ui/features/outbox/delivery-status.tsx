import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { canDiscard, canEdit, canRetry, type OutboxRow, type OutboxState } from '../../lib/outbox/machine.ts';
import { useOutbox, useOutboxRowForQuestion } from '../../lib/outbox/use-outbox.ts';
import './delivery-status.css';

/**
 * The four words of U9. A send whose connection dropped before the gateway confirmed it (`unconfirmed`) is still on its
 * way for the person: it reads Sending, goes out again by itself on the next connection, and can be retried safely.
 */
export const DELIVERY_LABELS: Record<OutboxState, string> = {
  queued: 'Queued',
  sending: 'Sending',
  failed: 'Failed',
  unconfirmed: 'Sending',
  sent: 'Sent',
};

/** Why the state is what it is, beside the word: what the gateway said for Failed, the safe retry for a dropped send. */
function deliveryDetail(row: OutboxRow): string | undefined {
  if (row.state === 'failed') return row.error?.message;
  if (row.state === 'unconfirmed') return 'The connection dropped before the gateway confirmed it; retrying never sends it twice.';
  return undefined;
}

export type DeliveryStatusViewProps = {
  row: OutboxRow;
  onRetry(): void;
  onDiscard(): void;
  onEdit(text: string): Promise<unknown> | void;
};

/** A question summary's delivery line (PRODUCT U9): state, Retry answer, Discard, and Edit while still queued. */
export function DeliveryStatusView({ row, onRetry, onDiscard, onEdit }: DeliveryStatusViewProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const editing = draft !== null && canEdit(row);
  const hintId = useId();
  const detail = deliveryDetail(row);
  return (
    <div className="delivery-status" data-state={row.state} data-error-code={row.error?.code}>
      <span role="status" aria-describedby={detail ? hintId : undefined}>
        {DELIVERY_LABELS[row.state]}
      </span>
      {detail && (
        <span id={hintId} className="delivery-status-hint">
          {detail}
        </span>
      )}
      {canRetry(row) && (
        <Button size="sm" onClick={onRetry}>
          Retry answer
        </Button>
      )}
      {canEdit(row) && !editing && (
        <Button size="sm" variant="ghost" onClick={() => setDraft(row.text)}>
          Edit
        </Button>
      )}
      {canDiscard(row) && (
        <Button size="sm" variant="ghost" onClick={onDiscard}>
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

type DeliveryStatusProps = {
  questionId: string;
  /** The saved reply the gateway recorded as this browser's answer: Sent even when the outbox row is gone. */
  savedReplyId?: string;
};

/** The delivery of one question's async answer, from the outbox; nothing when neither the outbox nor the gateway knows one. */
export function DeliveryStatus({ questionId, savedReplyId }: DeliveryStatusProps) {
  const outbox = useOutbox();
  const row = useOutboxRowForQuestion(questionId);
  if (!row)
    return savedReplyId ? (
      <div className="delivery-status" data-state="sent">
        <span role="status">{DELIVERY_LABELS.sent}</span>
      </div>
    ) : null;
  return (
    <DeliveryStatusView
      row={row}
      onRetry={() => void outbox.retry(row.id)}
      onDiscard={() => void outbox.discard(row.id)}
      onEdit={(text) => outbox.edit(row.id, text)}
    />
  );
}
