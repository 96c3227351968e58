import { memo, useEffect, useRef } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { commands, dispatchKey, isTextField, type CommandContext } from '../commands.ts';
import { useAnswerForm } from '../hooks/use-answer-form.ts';
import { useChoosableOffers } from '../hooks/use-choosable-offers.ts';
import { useNarrow } from '../hooks/use-narrow.ts';
import { draftActions, useDraftStep } from '../stores/drafts.ts';
import { dockUiActions } from '../stores/dock-ui.ts';
import { DockHeader } from './dock-header.tsx';
import { QuestionStep } from './question-step.tsx';
import { CredentialGuardAlert } from './credential-guard-alert.tsx';
import { StepperFooter } from './stepper-footer.tsx';
import { useMayAnswer } from '../../routing/hooks/use-may-answer.ts';
import { RouteRowSlot } from './route-row-slot.tsx';
import { useHandoffDrafts } from '../hooks/use-handoff-drafts.ts';

type Props = {
  sessionKey: string;
  record: QuestionRecord;
  position: number;
  requestCount: number;
  onSelectRelative: (delta: number) => void;
  /** The session's title, where the header learns which client asks (T6, X5). */
  sessionTitle?: string;
};

/** One request, expanded: a stepper on wide screens, stacked cards on narrow ones (U2, U12). */
export const RequestPanel = memo(function RequestPanel({ sessionKey, record: asked, position, requestCount, onSelectRelative, sessionTitle }: Props) {
  // G5: the panel (options, keys, the Other card's number) works on what this identity may choose.
  const record = useChoosableOffers(asked);
  const stacked = useNarrow();
  const mayAnswer = useMayAnswer(record.route);
  useHandoffDrafts(record);
  const questionCount = record.questions.length;
  const step = Math.min(useDraftStep(record.id), questionCount - 1);
  const goToStep = (n: number) => {
    draftActions().stepChanged(record.id, n);
    dockUiActions().focusRequested(sessionKey, 'request');
  };
  // Focus moves on to the next request, or back to the composer when none is left.
  const form = useAnswerForm(record, 'control-ui', {
    onDone: () => dockUiActions().focusRequested(sessionKey, 'request'),
    onMissing: (missing) => {
      if (!stacked) goToStep(record.questions.findIndex((q) => q.id === missing[0]));
    },
  });

  const ctx: CommandContext = {
    stacked,
    step,
    questionCount,
    requestCount,
    busy: form.busy,
    mayAnswer,
    back: () => goToStep(Math.max(0, step - 1)),
    next: () => {
      if (form.check([record.questions[step].id]).length === 0) goToStep(step + 1);
    },
    submit: form.submit,
    skip: form.skip,
    collapse: () => dockUiActions().dockCollapsed(sessionKey, { focusComposer: true }),
    previousRequest: () => onSelectRelative(-1),
    nextRequest: () => onSelectRelative(1),
    pick: (index, target) => form.pick(index, target, record.questions[stacked ? 0 : step].id),
  };
  const items = stacked ? record.questions : [record.questions[step]];
  usePickKeysFromPage(ctx);

  return (
    <form
      ref={form.formRef}
      className="qd-panel"
      data-record-id={record.id}
      data-stacked={stacked || undefined}
      tabIndex={-1}
      noValidate
      onSubmit={form.onSubmit}
      onKeyDown={(e) => dispatchKey(e, ctx)}
    >
      <DockHeader record={record} ctx={ctx} position={position} sessionTitle={sessionTitle} />
      <RouteRowSlot record={record} />
      <div className="qd-questions">
        {items.map((item) => (
          <QuestionStep
            key={`${record.id}:${item.id}`}
            recordId={record.id}
            item={item}
            locked={form.busy || !mayAnswer}
            attempted={form.attempted.includes(item.id)}
          />
        ))}
      </div>
      <StepperFooter ctx={ctx} error={form.problem} notice={form.notice} choices={record.questions[step].options.length + 1} />
      <CredentialGuardAlert match={form.credentials.pending} onConfirm={form.credentials.confirm} onCancel={form.credentials.cancel} />
    </form>
  );
});

/** Widgets whose keys (typeahead, a dialog's own) a digit belongs to, wherever they sit on the page. */
const KEYED_WIDGETS = '[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"], [role="combobox"], [role="tree"], [role="grid"]';

/**
 * U3 with focus outside the panel: the number keys pick whenever focus is not in a text field (on the page itself,
 * the log, a session link), since an async question docks without taking focus (U8). Text fields and widgets with
 * keys of their own keep them; the panel handles its own (and marks them handled).
 */
function usePickKeysFromPage(ctx: CommandContext) {
  const latest = useRef(ctx);
  latest.current = ctx;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Safari ends a composition with keyCode 229 after isComposing is already false (as the panel's own keys check).
      if (e.defaultPrevented || e.isComposing || e.keyCode === 229) return;
      if (isTextField(e.target) || (e.target instanceof Element && e.target.closest(KEYED_WIDGETS))) return;
      if (!commands.pick.keyTest?.(e) || !commands.pick.enabled(latest.current)) return;
      e.preventDefault();
      commands.pick.run(latest.current, e);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
