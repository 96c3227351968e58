import { useLayoutEffect } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { focusIntoRequest } from '../hooks/use-dock-focus.ts';
import { dispatchKey, type CommandContext } from '../commands.ts';
import { useAnswerForm } from '../hooks/use-answer-form.ts';
import { QuestionStep } from './question-step.tsx';
import { CredentialGuardAlert } from './credential-guard-alert.tsx';
import { StepperFooter } from './stepper-footer.tsx';
import { useMayAnswer } from '../../routing/hooks/use-may-answer.ts';
import { useHandoffDrafts } from '../hooks/use-handoff-drafts.ts';

/** Every question of the request at once (a page of its own has the room): the dock's form, stacked (U4, U5, U11). */
export function LinkAnswerForm({ record }: { record: QuestionRecord }) {
  const form = useAnswerForm(record, 'link');
  // E3: someone a routed question does not wait for reads it here as in the dock, without changing its choices.
  const mayAnswer = useMayAnswer(record.route);
  useHandoffDrafts(record);
  const { formRef } = form;
  // U3/U11: the page is there to answer its question, so its first choice takes focus and number keys work at once
  // (unless the person already clicked or typed somewhere). Before the first paint, so no click or key on the shown
  // page can come before it and lose its focus.
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    focusIntoRequest(formRef.current?.parentElement ?? null);
  }, [record.id, formRef]);
  const ctx: CommandContext = {
    stacked: true,
    step: 0,
    questionCount: record.questions.length,
    requestCount: 1,
    busy: form.busy,
    mayAnswer,
    back: () => {},
    next: () => {},
    submit: form.submit,
    skip: form.skip,
    previousRequest: () => {},
    nextRequest: () => {},
    pick: (index, target) => form.pick(index, target, record.questions[0].id),
  };
  return (
    <form
      ref={form.formRef}
      className="qd-panel ql-form"
      data-record-id={record.id}
      noValidate
      onSubmit={form.onSubmit}
      onKeyDown={(e) => dispatchKey(e, ctx)}
      aria-busy={form.busy || undefined}
    >
      <div className="qd-questions">
        {record.questions.map((item) => (
          <QuestionStep key={item.id} recordId={record.id} item={item} locked={form.busy || !mayAnswer} attempted={form.attempted.includes(item.id)} wholeDetail />
        ))}
      </div>
      <StepperFooter ctx={ctx} error={form.problem} />
      <CredentialGuardAlert match={form.credentials.pending} onConfirm={form.credentials.confirm} onCancel={form.credentials.cancel} />
    </form>
  );
}
