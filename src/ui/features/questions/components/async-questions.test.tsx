// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryStatus } from '../../outbox/delivery-status.tsx';
import { useDraftsStore } from '../stores/drafts.ts';
import { dockCodeReady, QuestionDock } from '../index.tsx';
import { useQuestionTranscriptItems } from '../transcript.tsx';
import { useSkipsStore } from '../stores/skips.ts';
import { composer, deployRecord, fakeClient, lunchRecord, resetStores, setup } from '../../../../testing/ui-questions.tsx';
import type { SummarySlots } from './summary-slots.ts';

// The app hands the summaries the outbox feature's real delivery line (app/use-summary-slots.ts); so does this test,
// so what it reads is what a person sees, not a stand-in's own words.
const Delivery = DeliveryStatus;

function Page({ slots = { Delivery } }: { slots?: SummarySlots }) {
  const items = useQuestionTranscriptItems('s1', slots);
  return (
    <>
      <div role="log" aria-label="Conversation">
        {items.map((item) => (
          <div key={item.key}>{item.node}</div>
        ))}
      </div>
      <QuestionDock sessionKey="s1" composer={composer} />
    </>
  );
}

const dock = () => screen.queryByRole('region', { name: 'Questions' });
const log = () => screen.getByRole('log', { name: 'Conversation' });
const summary = (outcome: string) => within(log()).getByRole('group', { name: `Question ${outcome.toLowerCase()}` });

// The app connects only once the dock's chunks are in; so do these tests.
beforeAll(() => dockCodeReady);
beforeEach(resetStores);
afterEach(cleanup);

describe('async questions in the dock', () => {
  it('[U8] dock without taking focus; new messages and the asking turn ending do not dismiss them', async () => {
    const { client, render } = setup([]);
    render(<Page />);
    const message = screen.getByRole('textbox', { name: 'Message' });
    message.focus();
    act(() => client.emit('question.requested', { question: lunchRecord() }));
    expect(message).toHaveFocus();
    act(() => {
      client.emit('chat', { sessionKey: 's1', message: { id: 'x', sessionKey: 's1', role: 'assistant', text: 'hi', authorId: 'a', createdAtMs: 1, seq: 1 }, state: 'final' });
      client.emit('run.ended', { runId: 'run-1', sessionKey: 's1', stopReason: 'end_turn' });
    });
    expect(message).toHaveFocus();
    expect(message).toBeVisible();
  });

  it('[U3][U8] with focus nowhere, the number keys pick the docked question\'s options; typed in the composer, they stay text', async () => {
    const user = userEvent.setup();
    const { render } = setup([lunchRecord()]);
    render(<Page />);
    const message = screen.getByRole('textbox', { name: 'Message' });
    await user.type(message, '2');
    expect(message).toHaveValue('2');
    expect(within(dock()!).getByRole('radio', { name: 'Sushi' })).not.toBeChecked();
    message.blur();
    expect(document.activeElement).toBe(document.body);
    // A key that ends an input method's composition (Safari: keyCode 229, isComposing already false) picks nothing.
    fireEvent.keyDown(document.body, { key: '2', code: 'Digit2', keyCode: 229 });
    expect(within(dock()!).getByRole('radio', { name: 'Sushi' })).not.toBeChecked();
    await user.keyboard('2');
    const sushi = within(dock()!).getByRole('radio', { name: 'Sushi' });
    expect(sushi).toBeChecked();
    // The pick takes focus, so Ctrl+Enter goes on from there.
    await waitFor(() => expect(sushi).toHaveFocus());
    expect(message).toHaveValue('2');
  });

  it('[U8][U3] the dock\'s key hint says what keys do where focus is: in the message box they type there, and how to reach the question', async () => {
    const user = userEvent.setup();
    const { render } = setup([lunchRecord()]);
    render(<Page />);
    const message = screen.getByRole('textbox', { name: 'Message' });
    await user.click(message);
    const hint = () => dock()!.querySelector('.qd-hints')!.textContent;
    await waitFor(() => expect(hint()).toMatch(/Keys type in your message/));
    expect(hint()).toMatch(/\/question Enter or click to answer here/);
    expect(hint()).not.toMatch(/choose/);
    act(() => message.blur());
    await waitFor(() => expect(hint()).toMatch(/1–4 choose/));
    await user.click(within(dock()!).getByRole('radio', { name: 'Sushi' }));
    expect(hint()).toMatch(/Enter submit/);
  });

  it('[U3][U8] with focus on a session link (not a text field), the number keys pick too; in a menu they do not', async () => {
    const user = userEvent.setup();
    const { render } = setup([lunchRecord()]);
    render(<Page />);
    const link = document.createElement('a');
    link.href = '/s/s2';
    link.textContent = 'Other session';
    document.body.append(link);
    link.focus();
    expect(link).toHaveFocus();
    await user.keyboard('1');
    link.remove();
    expect(within(dock()!).getByRole('radio', { name: /^Pizza/ })).toBeChecked();
    const menu = document.createElement('div');
    menu.setAttribute('role', 'menu');
    const item = document.createElement('button');
    menu.append(item);
    document.body.append(menu);
    item.focus();
    await user.keyboard('2');
    expect(within(dock()!).getByRole('radio', { name: 'Sushi' })).not.toBeChecked();
    menu.remove();
  });

  it('[U9][Q9] Submit sends an ordinary chat message through the outbox (Q9 text, replyTo), never question.resolve', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([lunchRecord()]);
    render(<Page />);
    await user.click(within(dock()!).getByRole('radio', { name: 'Sushi' }));
    await user.click(within(dock()!).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(dock()).toBeNull());
    await waitFor(() => expect(within(summary('Answered')).getByRole('status')).toHaveTextContent('Sent'));
    const calls = client.request.mock.calls.filter(([method]) => method !== 'chat.history');
    expect(calls).toEqual([
      [
        'chat.send',
        {
          sessionKey: 's1',
          message: '> Lunch\nSushi',
          idempotencyKey: expect.stringMatching(/^outbox-/),
          replyTo: { questionId: 'q-lunch', answers: { lunch: ['Sushi'] } },
        },
        expect.anything(),
      ],
    ]);
    expect(within(summary('Answered')).getByText('Sushi')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
  });

  it('[U9] offline, the answer waits Queued in the transcript; back online it is sent once', async () => {
    const user = userEvent.setup();
    const client = fakeClient('operator', 'offline');
    setup([lunchRecord()], client).render(<Page />);
    await user.type(within(dock()!).getByRole('textbox', { name: 'Other' }), 'Ramen');
    await user.click(within(dock()!).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(within(summary('Answered')).getByRole('status')).toHaveTextContent('Queued'));
    expect(within(summary('Answered')).getByText('Ramen')).toBeInTheDocument();
    // [U9] one status per card: not answered until the gateway has it.
    expect(within(log()).getAllByRole('status')).toHaveLength(1);
    expect(within(log()).queryByText('Answered')).toBeNull();
    expect(dock()).toBeNull();
    act(() => client.setStatus('connected'));
    await waitFor(() => expect(within(summary('Answered')).getByRole('status')).toHaveTextContent('Sent'));
    expect(client.request.mock.calls.filter(([m]) => m === 'chat.send')).toHaveLength(1);
  });

  it('[U9] Discard reopens the draft in the dock, also for a retired reminder and where the draft was lost', async () => {
    const user = userEvent.setup();
    const { outbox, render } = setup([lunchRecord({ retiredAtMs: Date.now() })], fakeClient('operator', 'offline'));
    render(<Page />);
    await user.click(within(summary('No longer pending')).getByRole('button', { name: 'Answer' }));
    await user.click(within(dock()!).getByRole('radio', { name: 'Salad' }));
    await user.click(within(dock()!).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(dock()).toBeNull());
    expect(within(summary('Answered')).getByRole('status')).toHaveTextContent('Queued');

    // Another tab's storage may lack the draft: the row's answers rebuild it.
    act(() => useDraftsStore.getState().actions.draftDiscarded('q-lunch'));
    const row = outbox.rowForQuestion('q-lunch')!;
    await act(() => outbox.discard(row.id));
    await waitFor(() => expect(within(dock()!).getByRole('radio', { name: 'Salad' })).toBeChecked());
    expect(within(log()).getByRole('group', { name: 'Question no longer pending' })).toBeInTheDocument();
  });

  it('[U8][Q10] retirement holds for a reopened question: put back by Discard or Answer, it leaves the dock when a later run retires it', async () => {
    const user = userEvent.setup();
    const { client, outbox, render } = setup([lunchRecord()], fakeClient('operator', 'offline'));
    render(<Page />);
    const retire = (retiredAtMs: number) => act(() => client.emit('question.retired', { id: 'q-lunch', sessionKey: 's1', retiredAtMs }));
    await user.click(within(dock()!).getByRole('radio', { name: 'Salad' }));
    await user.click(within(dock()!).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(dock()).toBeNull());
    await act(() => outbox.discard(outbox.rowForQuestion('q-lunch')!.id));
    await waitFor(() => expect(within(dock()!).getByRole('radio', { name: 'Salad' })).toBeChecked());

    screen.getByRole('textbox', { name: 'Message' }).focus();
    const first = Date.now();
    retire(first);
    await waitFor(() => expect(dock()).toBeNull());
    await user.click(within(summary('No longer pending')).getByRole('button', { name: 'Answer' }));
    expect(within(dock()!).getByRole('radio', { name: 'Salad' })).toBeChecked();

    // Another event of the same retirement changes nothing; a later run retiring it again does.
    screen.getByRole('textbox', { name: 'Message' }).focus();
    retire(first);
    expect(dock()).not.toBeNull();
    retire(first + 10);
    await waitFor(() => expect(dock()).toBeNull());
    expect(summary('No longer pending')).toBeInTheDocument();
  });

  it('[U8][Q10] a reminder retiring while focus is on its own choice leaves the dock; Answer reopens it with that choice', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([lunchRecord()], fakeClient('operator', 'offline'));
    render(<Page />);
    await user.click(within(dock()!).getByRole('radio', { name: 'Sushi' }));
    expect(within(dock()!).getByRole('radio', { name: 'Sushi' })).toHaveFocus();
    act(() => client.emit('question.retired', { id: 'q-lunch', sessionKey: 's1', retiredAtMs: Date.now() }));
    await waitFor(() => expect(dock()).toBeNull());
    await user.click(within(summary('No longer pending')).getByRole('button', { name: 'Answer' }));
    expect(within(dock()!).getByRole('radio', { name: 'Sushi' })).toBeChecked();
  });

  it('[U8][U9] an answer discarded after its question retired gives the draft back to the summary, whose Answer reopens it', async () => {
    const user = userEvent.setup();
    const { client, outbox, render } = setup([lunchRecord()], fakeClient('operator', 'offline'));
    render(<Page />);
    await user.type(within(dock()!).getByRole('textbox', { name: 'Other' }), 'Ramen');
    await user.click(within(dock()!).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(dock()).toBeNull());
    act(() => client.emit('question.retired', { id: 'q-lunch', sessionKey: 's1', retiredAtMs: Date.now() }));
    expect(summary('Answered')).toBeInTheDocument();

    await act(() => outbox.discard(outbox.rowForQuestion('q-lunch')!.id));
    await waitFor(() => expect(summary('No longer pending')).toBeInTheDocument());
    expect(dock()).toBeNull();
    await user.click(within(summary('No longer pending')).getByRole('button', { name: 'Answer' }));
    expect(within(dock()!).getByRole('textbox', { name: 'Other' })).toHaveValue('Ramen');
  });

  it('[U8] Skip sends nothing, keeps a "Skipped" summary, and Undo puts the question back with its draft', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([lunchRecord(), deployRecord({ id: 'q-later', createdAtMs: Date.now() + 50 })]);
    render(<Page />);
    await user.click(within(dock()!).getByRole('button', { name: 'Next request' }));
    await user.type(within(dock()!).getByRole('textbox', { name: 'Other' }), 'Ramen');
    await user.click(within(dock()!).getByRole('button', { name: 'Skip' }));
    expect(client.request).not.toHaveBeenCalledWith('question.resolve', expect.anything());
    expect(client.request.mock.calls.filter(([m]) => m === 'chat.send')).toEqual([]);
    expect(within(dock()!).queryByText('What should we order?')).toBeNull();
    expect(within(summary('Skipped')).getByText('What should we order?')).toBeInTheDocument();
    expect(useSkipsStore.getState().skipped['q-lunch']).toBeDefined();

    await user.click(within(summary('Skipped')).getByRole('button', { name: 'Undo' }));
    expect(within(dock()!).getByRole('textbox', { name: 'Other' })).toHaveValue('Ramen');
    expect(within(log()).queryByRole('group')).toBeNull();
  });

  it('[U8] Undo is gone once its few seconds are over; the summary stays', () => {
    useSkipsStore.setState({ skipped: { 'q-lunch': { atMs: Date.now() - 9_000 } } });
    setup([lunchRecord()]).render(<Page />);
    expect(within(summary('Skipped')).queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(dock()).toBeNull();
  });

  it('[U9] confirmed stays confirmed after reload: an answered record with its reply shows the saved reply, whole when ambiguous', () => {
    const saved = lunchRecord({ status: 'answered', replyMessageId: 'm7', resolvedBy: { identity: 'operator', surface: 'control-ui', atMs: 1 } });
    const text = '> Lunch\nSushi\n> Lunch\nor pizza';
    const reply = { id: 'm7', sessionKey: 's1', role: 'user' as const, text, authorId: 'operator', replyTo: { questionId: 'q-lunch' }, createdAtMs: 2, seq: 2 };
    useDraftsStore.setState({ sent: {} });
    setup([saved]).render(<Page slots={{ Delivery, replies: new Map([['m7', reply]]) }} />);
    const group = within(log()).getByRole('group');
    expect(within(group).getByRole('blockquote', { name: 'Saved reply' })).toHaveTextContent('Sushi > Lunch or pizza');
  });

  it('[U9] an answer of ours saved while away reads Sent with the gateway record as its confirmation', () => {
    const answers = { lunch: ['Sushi'] };
    useDraftsStore.getState().actions.asyncAnswerQueued('q-lunch', answers);
    const saved = lunchRecord({ status: 'answered', answers, replyMessageId: 'm7', resolvedBy: { identity: 'operator', surface: 'control-ui', atMs: 1 } });
    setup([saved]).render(<Page />);
    expect(within(summary('Answered')).getByRole('status')).toHaveTextContent('Sent');
    expect(within(summary('Answered')).getByText('Sushi')).toBeInTheDocument();
  });

  it('[U9] answered elsewhere before this answer arrived: Failed with the reason, Discard, and no Retry answer (a final refusal)', async () => {
    const user = userEvent.setup();
    const client = fakeClient('operator', 'offline');
    const send = client.request.getMockImplementation()!;
    client.request.mockImplementation(async (method, params) => {
      if (method !== 'chat.send') return send(method, params);
      throw Object.assign(new Error('question "q-lunch" is already answered'), { code: 'QUESTION_ALREADY_TERMINAL', details: { status: 'answered' } });
    });
    setup([lunchRecord()], client).render(<Page />);
    await user.click(within(dock()!).getByRole('radio', { name: 'Sushi' }));
    await user.click(within(dock()!).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(within(summary('Answered')).getByRole('status')).toHaveTextContent('Queued'));
    act(() => client.setStatus('connected'));
    const failed = summary('Answered');
    await waitFor(() => expect(within(failed).getByRole('status')).toHaveTextContent(/^Failed$/));
    expect(within(failed).getByRole('status')).toHaveTextContent(/^Failed$/);
    expect(within(failed).getByRole('status')).toHaveAccessibleDescription('Not delivered: it was already answered elsewhere.');
    expect(within(failed).queryByRole('button', { name: 'Retry answer' })).toBeNull();
    expect(within(failed).getByRole('button', { name: 'Discard' })).toBeInTheDocument();
  });
});
