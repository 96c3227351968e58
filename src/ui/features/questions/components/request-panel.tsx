import { memo, useRef, useState, type FormEvent } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { errorMessage } from '../../../lib/error-message.ts';
import { focusWithoutLayout } from '../../../lib/focus-soon.ts';
import { collectAnswers } from '../../../../answers/collect.ts';
import { draftActions, useDraftStep, useDraftsStore } from '../stores/drafts.ts';
import { endedElsewhere } from '../api/resolution.ts';
import { dispatchKey, type CommandContext } from '../commands.ts';
import { useAnswerRequest } from '../hooks/use-answer-request.ts';
import { useNarrow } from '../hooks/use-narrow.ts';
import { dockUiActions } from '../stores/dock-ui.ts';
import { DockHeader } from './dock-header.tsx';
import { optionId } from './dom-ids.ts';
import { QuestionStep } from './question-step.tsx';
import { StepperFooter } from './stepper-footer.tsx';

type Props = {
  sessionKey: string;
  record: QuestionRecord;
  position: number;
  requestCount: number;
  onSelectRelative: (delta: number) => void;
};

/** One request, expanded: a stepper on wide screens, stacked cards on narrow ones (U2, U12). */
export const RequestPanel = memo(function RequestPanel({ sessionKey, record, position, requestCount, onSelectRelative }: Props) {
  const stacked = useNarrow();
  const questionCount = record.questions.length;
  const step = Math.min(useDraftStep(record.id), questionCount - 1);
  const { answer, skip, busy, error: failed } = useAnswerRequest(sessionKey, record);
  // Missing-answer messages show only after a try, and belong to the request they were for.
  const [attempted, setAttempted] = useState<{ recordId: string; items: string[] }>({ recordId: '', items: [] });
  const attemptedItems = attempted.recordId === record.id ? attempted.items : [];
  const formRef = useRef<HTMLFormElement>(null);

  const goToStep = (n: number) => {
    draftActions().stepChanged(record.id, n);
    dockUiActions().focusRequested(sessionKey, 'request');
  };
  const missingIn = (itemIds: string[]) => {
    const items = useDraftsStore.getState().drafts[record.id]?.items;
    const result = collectAnswers(record, items);
    return result.ok ? [] : result.missing.filter((id) => itemIds.includes(id));
  };

  const ctx: CommandContext = {
    stacked,
    step,
    questionCount,
    requestCount,
    busy,
    back: () => goToStep(Math.max(0, step - 1)),
    next: () => {
      const missing = missingIn([record.questions[step].id]);
      if (missing.length) setAttempted({ recordId: record.id, items: missing });
      else goToStep(step + 1);
    },
    submit: () => formRef.current?.requestSubmit(),
    skip,
    collapse: () => dockUiActions().dockCollapsed(sessionKey, { focusComposer: true }),
    previousRequest: () => onSelectRelative(-1),
    nextRequest: () => onSelectRelative(1),
    pick: (index, target) => {
      const holder = target instanceof Element ? target.closest('[data-question-id]')?.getAttribute('data-question-id') : null;
      const item = record.questions.find((q) => q.id === holder) ?? record.questions[stacked ? 0 : step];
      const option = item?.options[index];
      if (!item || !option) return;
      draftActions().optionPicked(record.id, item.id, option.label, item.multiSelect === true);
      const picked = document.getElementById(optionId(record.id, item.id, index));
      if (picked) focusWithoutLayout(picked);
    },
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const result = collectAnswers(record, useDraftsStore.getState().drafts[record.id]?.items);
    if (!result.ok) {
      setAttempted({ recordId: record.id, items: result.missing });
      if (!stacked) goToStep(record.questions.findIndex((q) => q.id === result.missing[0]));
      return;
    }
    answer(result.answers);
  };

  const error = failed && !endedElsewhere(failed) ? `Not sent: ${errorMessage(failed)}. Your answers are kept; try again.` : null;
  const items = stacked ? record.questions : [record.questions[step]];

  return (
    <form
      ref={formRef}
      className="qd-panel"
      data-record-id={record.id}
      data-stacked={stacked || undefined}
      tabIndex={-1}
      noValidate
      onSubmit={onSubmit}
      onKeyDown={(e) => dispatchKey(e, ctx)}
    >
      <DockHeader record={record} ctx={ctx} position={position} />
      <div className="qd-questions">
        {items.map((item) => (
          <QuestionStep
            key={`${record.id}:${item.id}`}
            recordId={record.id}
            item={item}
            locked={busy}
            attempted={attemptedItems.includes(item.id)}
          />
        ))}
      </div>
      <StepperFooter ctx={ctx} error={error} />
    </form>
  );
});
