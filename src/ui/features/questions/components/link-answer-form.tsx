import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { Button } from '../../../components/ui/button.tsx';
import { errorCode, errorMessage } from '../../../lib/error-message.ts';
import { collectAnswers } from '../../../../answers/collect.ts';
import { useDraftsStore } from '../stores/drafts.ts';
import { endedElsewhere } from '../api/resolution.ts';
import { LinkQuestionItem } from './link-question-item.tsx';
import { useResolveLink } from '../api/resolve-link.ts';

/** Every question of the request at once (a page of its own has the room), with Skip and Submit (U4, U5, U11). */
export function LinkAnswerForm({ record }: { record: QuestionRecord }) {
  const resolve = useResolveLink(record);
  const busy = resolve.isPending;
  const [attempted, setAttempted] = useState<string[]>([]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const result = collectAnswers(record, useDraftsStore.getState().drafts[record.id]?.items);
    if (!result.ok) {
      setAttempted(result.missing);
      return;
    }
    setAttempted([]);
    resolve.mutate({ kind: 'answer', answers: result.answers });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    // Ctrl+Enter (Cmd+Enter on macOS) submits from anywhere in the form, as in the dock (U3); IME composition is left alone.
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.nativeEvent.isComposing) return;
    event.preventDefault();
    event.currentTarget.requestSubmit();
  };

  const problem =
    resolve.error && errorCode(resolve.error) === 'QUESTION_INVALID_ANSWER'
      ? `Not accepted: ${errorMessage(resolve.error)}`
      : resolve.error && !endedElsewhere(resolve.error)
        ? `Not sent: ${errorMessage(resolve.error)}. Your answer is kept; try again.`
        : null;

  return (
    <form className="ql-form" noValidate onSubmit={submit} onKeyDown={onKeyDown} aria-busy={busy || undefined}>
      {record.questions.map((item) => (
        <LinkQuestionItem key={item.id} recordId={record.id} item={item} locked={busy} attempted={attempted.includes(item.id)} />
      ))}
      {problem && (
        <p className="inline-error" role="alert">
          {problem}
        </p>
      )}
      <div className="ql-actions">
        <Button variant="ghost" disabled={busy} onClick={() => resolve.mutate({ kind: 'skip' })}>
          Skip
        </Button>
        <span className="ql-spacer" />
        {busy && <span className="muted">Sending…</span>}
        <Button type="submit" variant="primary" disabled={busy}>
          Submit
        </Button>
      </div>
    </form>
  );
}
