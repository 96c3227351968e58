// @vitest-environment jsdom
import type { ReactNode } from 'react';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { oneOf } from '../../../../testing/question-items.ts';
import { AskdockError } from '../../../../protocol/index.ts';
import { dockCodeReady, QuestionDock, expandDock } from '../index.tsx';
import { useQuestionTranscriptItems } from '../transcript.tsx';
import { answersFingerprint } from '../lib/resolved-here.ts';
import { DRAFTS_STORAGE_KEY, useDraftsStore } from '../stores/drafts.ts';
import { composer, deployRecord, fakeClient, lunchRecord, resetStores, setup } from '../../../../testing/ui-questions.tsx';

function Transcript({ sessionKey }: { sessionKey: string }) {
  const items = useQuestionTranscriptItems(sessionKey);
  return (
    <div role="log" aria-label="Conversation">
      {items.map((item) => (
        <div key={item.key}>{item.node}</div>
      ))}
    </div>
  );
}

const dock = () => screen.getByRole('region', { name: 'Questions' });
const ctrlEnter = '{Control>}{Enter}{/Control}';

// The app connects only once the dock's chunks are in; so do these tests.
beforeAll(() => dockCodeReady);
beforeEach(resetStores);
afterEach(cleanup);

describe('QuestionDock', () => {
  it('[U1] a blocking question replaces the composer; Esc collapses and the composer comes back under a slim bar', async () => {
    const user = userEvent.setup();
    setup([deployRecord()]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    await user.keyboard('{Escape}');
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    expect(within(dock()).getByText('1 pending')).toBeInTheDocument();
    expect(within(dock()).getByText('Where should I deploy?')).toBeInTheDocument();
    // A blocking question's time remaining stays in sight while collapsed (U7).
    expect(within(dock()).getByRole('timer')).toHaveTextContent(/left$/);
    expect(screen.queryByRole('radio')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Expand questions' }));
    expect(screen.getByRole('radio', { name: 'Production' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Production' })).toHaveFocus();
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
  });

  it('[U1] "Collapse questions" collapses too, and an async question leaves the composer usable', async () => {
    const user = userEvent.setup();
    setup([lunchRecord()]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeVisible();
    expect(within(dock()).getByRole('radio', { name: 'Pizza (Recommended)' })).not.toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Collapse questions' }));
    expect(within(dock()).getByText('1 pending')).toBeInTheDocument();
    // An async question has no deadline to show.
    expect(within(dock()).queryByRole('timer')).toBeNull();
  });

  it('[U1] expandDock (what /question calls) reopens a collapsed dock and moves focus into it', async () => {
    const user = userEvent.setup();
    setup([deployRecord()]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.click(screen.getByRole('button', { name: 'Collapse questions' }));
    expect(screen.getByRole('button', { name: 'Expand questions' })).toBeInTheDocument();
    act(() => expandDock('s1'));
    expect(screen.getByRole('radio', { name: 'Staging (Recommended)' })).toHaveFocus();
  });

  it('[U8] a retired reminder leaves the dock; the transcript says "No longer pending" and Answer reopens it with its draft', async () => {
    const user = userEvent.setup();
    useDraftsStore.getState().actions.otherTextChanged('q-lunch', oneOf('lunch'), 'Ramen');
    setup([lunchRecord({ retiredAtMs: Date.now() })]).render(
      <>
        <Transcript sessionKey="s1" />
        <QuestionDock sessionKey="s1" composer={composer} />
      </>,
    );
    expect(screen.queryByRole('region', { name: 'Questions' })).toBeNull();
    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(within(log).getByText('No longer pending')).toBeInTheDocument();
    await user.click(within(log).getByRole('button', { name: 'Answer' }));
    expect(within(dock()).getByRole('textbox', { name: 'Other' })).toHaveValue('Ramen');
    expect(within(dock()).getByRole('radio', { name: 'Pizza (Recommended)' })).toHaveFocus();
  });

  it('[U2] shows one question at a time with a stepper, Back / Next, and Submit on the last', async () => {
    const user = userEvent.setup();
    const { client } = setup([deployRecord()]);
    setup([deployRecord()], client).render(<QuestionDock sessionKey="s1" composer={composer} />);
    expect(screen.getByText('Question 1 of 2')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Back' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose an option');
    expect(screen.getByText('Question 1 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Staging (Recommended)' }));
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Question 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Email' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('radio', { name: 'Staging (Recommended)' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('checkbox', { name: 'Email' }));
    await user.click(screen.getByRole('checkbox', { name: 'Pager' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(client.request).toHaveBeenCalledWith('question.resolve', {
      id: 'q-deploy',
      answers: { env: ['Staging (Recommended)'], notify: ['Email', 'Pager'] },
      resolutionId: expect.stringMatching(/^ui-/),
      surface: 'control-ui',
    });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Questions' })).toBeNull());
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    expect(useDraftsStore.getState().drafts['q-deploy']).toBeUndefined();
  });

  it('[U2][Q5] a question id `constructor` in a record `toString`: Next, Back and Submit work and send its answer', async () => {
    const user = userEvent.setup();
    const [env, notify] = deployRecord().questions;
    const record = deployRecord({ id: 'toString', questions: [{ ...env, id: 'constructor' }, { ...notify, id: 'valueof' }] });
    const { client, render } = setup([record]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose an option');
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('checkbox', { name: 'Slack' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('radio', { name: 'Production' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('checkbox', { name: 'Slack' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ id: 'toString', answers: { constructor: ['Production'], valueof: ['Slack'] } }));
  });

  it('[U12] each option of a single choice is one radio: no hidden native radio beside it to measure and keep in step', () => {
    setup([deployRecord()]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    const radios = within(dock()).getAllByRole('radio');
    expect(radios.length).toBeGreaterThan(1);
    expect(radios.every((r) => r.tagName === 'BUTTON')).toBe(true);
    expect(dock().querySelectorAll('input[type="radio"]')).toHaveLength(0);
  });

  it('[U3][U12] arrow keys in a single-choice group select the option they move to; Home/End go to the first/last', async () => {
    const user = userEvent.setup();
    const [env] = deployRecord().questions;
    const three = { ...env, options: [...env.options, { label: 'Canary' }] };
    setup([deployRecord({ questions: [three] })]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    const radio = (name: string) => screen.getByRole('radio', { name });
    act(() => radio('Staging (Recommended)').focus());
    expect(radio('Staging (Recommended)')).not.toBeChecked();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(radio('Production')).toHaveFocus());
    expect(radio('Production')).toBeChecked();
    await user.keyboard('{End}');
    await waitFor(() => expect(radio('Canary')).toHaveFocus());
    expect(radio('Canary')).toBeChecked();
    await user.keyboard('{Home}');
    await waitFor(() => expect(radio('Staging (Recommended)')).toHaveFocus());
    expect(radio('Staging (Recommended)')).toBeChecked();
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(radio('Canary')).toHaveFocus());
    expect(radio('Canary')).toBeChecked();
    expect(useDraftsStore.getState().drafts['q-deploy'].items.env).toEqual({ chosen: ['Canary'], other: '' });
  });

  it('[U2][U12] Back is no Tab stop while it does nothing (the first question), and is one on the next', async () => {
    const user = userEvent.setup();
    setup([deployRecord()]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    const tabStops = async () => {
      act(() => within(dock()).getByRole('textbox', { name: 'Other' }).focus());
      const seen: string[] = [];
      for (let i = 0; i < 12; i++) {
        await user.tab();
        const el = document.activeElement as HTMLElement;
        if (!dock().contains(el)) break;
        seen.push(el.textContent ?? '');
      }
      return seen;
    };
    expect((await tabStops()).some((name) => name.startsWith('Back'))).toBe(false);
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect((await tabStops()).some((name) => name.startsWith('Back'))).toBe(true);
  });

  it('[U11] the summary and the collapsed bar offer "Open in its own page", the question\'s link page', async () => {
    const user = userEvent.setup();
    setup([deployRecord(), deployRecord({ id: 'q-done', status: 'skipped' })]).render(
      <>
        <Transcript sessionKey="s1" />
        <QuestionDock sessionKey="s1" composer={composer} />
      </>,
    );
    const log = within(screen.getByRole('log', { name: 'Conversation' }));
    expect(log.getByRole('link', { name: 'Open in its own page' })).toHaveAttribute('href', '/q/q-done');
    await user.click(screen.getByRole('button', { name: 'Collapse questions' }));
    expect(within(dock()).getByRole('link', { name: 'Open in its own page' })).toHaveAttribute('href', '/q/q-deploy');
  });

  it('[U3] number keys pick options but never steal typed text; Ctrl+Enter continues and submits', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([deployRecord()]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.click(screen.getByRole('radio', { name: 'Staging (Recommended)' }));
    await user.keyboard('2');
    expect(screen.getByRole('radio', { name: 'Production' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Production' })).toHaveFocus();
    await user.click(screen.getByRole('textbox', { name: 'Other' }));
    await user.keyboard('v1{Enter}2');
    expect(screen.getByRole('textbox', { name: 'Other' })).toHaveValue('v1\n2');
    expect(screen.getByRole('radio', { name: 'Production' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'Staging (Recommended)' })).not.toBeChecked();
    await user.keyboard(ctrlEnter);
    expect(screen.getByText('Question 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Email' })).toHaveFocus();
    await user.keyboard('13');
    expect(screen.getByRole('checkbox', { name: 'Email' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Pager' })).toBeChecked();
    await user.keyboard(ctrlEnter);
    expect(client.request).toHaveBeenCalledWith(
      'question.resolve',
      expect.objectContaining({ answers: { env: ['v1\n2'], notify: ['Email', 'Pager'] } }),
    );
  });

  it('[U3] Cmd+Enter (metaKey, as on macOS) continues and submits like Ctrl+Enter, from a choice and from Other', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([deployRecord()]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    await user.keyboard('{Meta>}{Enter}{/Meta}');
    expect(screen.getByText('Question 2 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: 'Other' }));
    await user.keyboard('ops{Meta>}{Enter}{/Meta}');
    expect(client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ answers: { env: ['Production'], notify: ['ops'] } }));
  });

  it('[U3] IME composition is never taken as a key, and action buttons keep their own keys', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([deployRecord({ questions: [deployRecord().questions[0]] })]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    const other = screen.getByRole('textbox', { name: 'Other' });
    await user.type(other, 'staging');
    // A composing Ctrl+Enter (keyCode 229) must not submit.
    other.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, keyCode: 229, isComposing: true, bubbles: true }));
    expect(client.request).not.toHaveBeenCalled();
    screen.getByRole('button', { name: 'Skip' }).focus();
    await user.keyboard(ctrlEnter);
    expect(client.request).not.toHaveBeenCalled();
    await user.keyboard('1');
    expect(screen.getByRole('radio', { name: 'Staging (Recommended)' })).toBeChecked();
    expect(other).toHaveValue('');
  });

  it('[U4] typing Other deselects the option on single-select; the last action wins; multi-select sends Other beside the choices', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([deployRecord()]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    await user.type(screen.getByRole('textbox', { name: 'Other' }), 'canary');
    expect(screen.getByRole('radio', { name: 'Production' })).not.toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    expect(screen.getByRole('textbox', { name: 'Other' })).toHaveValue('');
    await user.type(screen.getByRole('textbox', { name: 'Other' }), '  ');
    expect(screen.getByRole('radio', { name: 'Production' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('checkbox', { name: 'Slack' }));
    await user.type(screen.getByRole('textbox', { name: 'Other' }), ' the on-call channel ');
    expect(screen.getByRole('checkbox', { name: 'Slack' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(client.request).toHaveBeenCalledWith(
      'question.resolve',
      expect.objectContaining({ answers: { env: ['Production'], notify: ['Slack', 'the on-call channel'] } }),
    );
  });

  it('[U6] drafts are kept across request switching and a remount (reload); typed text equal to a label stays text', async () => {
    const user = userEvent.setup();
    const records = [deployRecord(), lunchRecord()];
    const first = setup(records).render(<QuestionDock sessionKey="s1" composer={composer} />);
    expect(within(dock()).getByText('1/2')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('checkbox', { name: 'Slack' }));
    await user.click(screen.getByRole('button', { name: 'Next request' }));
    expect(within(dock()).getByText('2/2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next request' })).toHaveFocus();
    await user.type(screen.getByRole('textbox', { name: 'Other' }), 'Sushi');
    expect(screen.getByRole('radio', { name: 'Sushi' })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Previous request' }));
    expect(screen.getByText('Question 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Slack' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Collapse questions' }));
    await user.click(screen.getByRole('button', { name: 'Expand questions' }));
    expect(screen.getByRole('checkbox', { name: 'Slack' })).toBeChecked();

    // A reload: the in-memory stores are emptied and rebuilt from storage alone.
    first.unmount();
    const saved = localStorage.getItem(DRAFTS_STORAGE_KEY);
    expect(saved).toBeTruthy();
    useDraftsStore.setState({ drafts: {}, sent: {} });
    localStorage.setItem(DRAFTS_STORAGE_KEY, saved!);
    await act(() => useDraftsStore.persist.rehydrate());
    setup(records).render(<QuestionDock sessionKey="s1" composer={composer} />);
    expect(screen.getByRole('checkbox', { name: 'Slack' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('radio', { name: 'Production' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Next request' }));
    expect(screen.getByRole('textbox', { name: 'Other' })).toHaveValue('Sushi');
    expect(screen.getByRole('radio', { name: 'Sushi' })).not.toBeChecked();
  });

  it('[U6] a new blocking question takes priority; an async one neither takes focus nor expands a collapsed dock', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([lunchRecord()]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.click(screen.getByRole('button', { name: 'Collapse questions' }));
    const asyncTwo = lunchRecord({ id: 'q-lunch-2', createdAtMs: Date.now() + 5 });
    act(() => client.emit('question.requested', { question: asyncTwo }));
    expect(screen.getByRole('button', { name: 'Expand questions' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    const blocking = deployRecord({ createdAtMs: Date.now() + 10 });
    act(() => client.emit('question.requested', { question: blocking }));
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Staging (Recommended)' })).toHaveFocus());
    expect(within(dock()).getByText('3/3')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('New question: Environment — Where should I deploy? (2 questions)');
  });

  it('[U5] Skip declines the whole prompt, and the summary keeps the wording beside "Skipped"', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([deployRecord()]);
    render(
      <>
        <Transcript sessionKey="s1" />
        <QuestionDock sessionKey="s1" composer={composer} />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    expect(client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ id: 'q-deploy', skip: true }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Questions' })).toBeNull());
    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(within(log).getByText('Skipped')).toBeInTheDocument();
    expect(within(log).getByText('Where should I deploy?')).toBeInTheDocument();
    expect(within(log).getByText('Who should hear about it?')).toBeInTheDocument();
  });

  it('[U7] summaries show each answer, or the outcome: Answered, Answered elsewhere, Skipped, Expired, Cancelled', () => {
    const sent = { env: ['Production'], notify: ['Email', 'on-call'] };
    useDraftsStore.setState({ sent: { a1: { atMs: Date.now(), answers: [answersFingerprint(sent)] } } });
    const by = (identity: string) => ({ identity, surface: 'control-ui', atMs: Date.now() });
    setup([
      deployRecord({ id: 'a1', status: 'answered', answers: sent, resolvedBy: by('operator') }),
      deployRecord({ id: 'a2', status: 'answered', answers: { env: ['Staging (Recommended)'], notify: ['Slack'] }, resolvedBy: by('guest') }),
      deployRecord({ id: 'a3', status: 'skipped' }),
      deployRecord({ id: 'a4', status: 'expired' }),
      deployRecord({ id: 'a5', status: 'cancelled', reason: 'run-ended' }),
      deployRecord({ id: 'a6', sessionKey: 'other', status: 'answered' }),
      deployRecord({ id: 'a7' }),
    ]).render(<Transcript sessionKey="s1" />);
    const summaries = within(screen.getByRole('log', { name: 'Conversation' })).getAllByRole('group');
    expect(summaries.map((s) => s.getAttribute('data-outcome'))).toEqual(['Answered', 'Answered elsewhere', 'Skipped', 'Expired', 'Cancelled']);
    expect(within(summaries[0]).getByText('Email, on-call')).toBeInTheDocument();
    expect(within(summaries[1]).getByText('Staging (Recommended)')).toBeInTheDocument();
    expect(within(summaries[3]).getByText('Where should I deploy?')).toBeInTheDocument();
  });

  it('[E7][E5] a routed question\'s summary says "Answered by <name> · <surface>", an approval\'s its Allow or Deny apart, a quorum\'s each approver', () => {
    const route = { escalation: 'prod', step: 1, notified: ['ana', 'dana'], eligible: ['ana', 'dana'] };
    const approval = { id: 'approval', header: 'Bash', question: 'Run git push?', kind: 'approval' as const, options: [{ label: 'Allow' }, { label: 'Deny' }] };
    const quorum = { needed: 2, approvals: [{ identity: 'ana', name: 'Ana', surface: 'tui', atMs: 1 }] };
    setup([
      deployRecord({ id: 'r1', status: 'answered', answers: { env: ['Production'], notify: ['Slack'] }, route, resolvedBy: { identity: 'dana', name: 'Dana', surface: 'tui', atMs: 1 } }),
      deployRecord({ id: 'r2', questions: [approval], status: 'answered', answers: { approval: ['Allow'] }, route, resolvedBy: { identity: 'dana', name: 'Dana', surface: 'control-ui', atMs: 2 } }),
      deployRecord({ id: 'r3', questions: [approval], status: 'answered', answers: { approval: ['Allow'] }, route: { ...route, quorum }, resolvedBy: { identity: 'dana', name: 'Dana', surface: 'tui', atMs: 3 } }),
      deployRecord({ id: 'r4', questions: [approval], status: 'answered', answers: { approval: ['Deny'] }, route, resolvedBy: { identity: 'bo', name: 'Bo', surface: 'channel:telegram', atMs: 4 } }),
    ]).render(<Transcript sessionKey="s1" />);
    const summaries = within(screen.getByRole('log', { name: 'Conversation' })).getAllByRole('group');
    expect(within(summaries[0]).getByText('Answered by Dana · TUI')).toBeInTheDocument();
    expect(within(summaries[1]).getByText('Answered by Dana · Control UI')).toBeInTheDocument();
    expect(within(summaries[1]).getByText('Allow')).toBeInTheDocument();
    expect(within(summaries[2]).getByText('Answered by Dana · TUI')).toBeInTheDocument();
    expect(within(summaries[2]).getByText('Approvals: Ana, Dana')).toBeInTheDocument();
    expect(within(summaries[3]).getByText('Answered by Bo · Telegram')).toBeInTheDocument();
    expect(within(summaries[3]).getByText('Deny')).toBeInTheDocument();
    expect(within(summaries[3]).queryByText(/Approvals/)).toBeNull();
  });

  it('[U7] a resolve that lost to another answer closes the dock and says "Answered elsewhere"', async () => {
    const user = userEvent.setup();
    const client = fakeClient();
    client.request.mockRejectedValueOnce(
      new AskdockError('QUESTION_ALREADY_TERMINAL', 'already answered', {
        details: { id: 'q-deploy', status: 'answered', answers: { env: ['Production'] }, resolvedBy: { identity: 'guest', surface: 'control-ui', atMs: 1 } },
      }),
    );
    setup([deployRecord({ questions: [deployRecord().questions[0]] })], client).render(
      <>
        <Transcript sessionKey="s1" />
        <QuestionDock sessionKey="s1" composer={composer} />
      </>,
    );
    await user.click(screen.getByRole('radio', { name: 'Staging (Recommended)' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Questions' })).toBeNull());
    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(within(log).getByText('Answered elsewhere')).toBeInTheDocument();
    expect(within(log).getByText('Production')).toBeInTheDocument();
  });

  it('[U7] an answer by the same person from another tab or browser reads "Answered elsewhere", saying where beside it', () => {
    const by = (identity: string, surface: string) => ({ identity, surface, atMs: Date.now() });
    const answers = { env: ['Production'], notify: ['Email'] };
    setup([
      deployRecord({ id: 'b1', status: 'answered', answers, resolvedBy: by('operator', 'control-ui') }),
      deployRecord({ id: 'b2', status: 'answered', answers, resolvedBy: by('operator', 'tui') }),
      deployRecord({ id: 'b3', status: 'answered', answers, resolvedBy: by('guest', 'control-ui') }),
    ]).render(<Transcript sessionKey="s1" />);
    const log = within(screen.getByRole('log', { name: 'Conversation' }));
    const groups = log.getAllByRole('group', { name: 'Question answered elsewhere' });
    expect(groups).toHaveLength(3);
    for (const group of groups) expect(within(group).getByText('Answered elsewhere', { exact: true })).toBeInTheDocument();
    // Only the person's own browser answer says where; the TUI's and another identity's do not.
    expect(groups.filter((g) => within(g).queryByText('in another tab or browser'))).toHaveLength(1);
    expect(groups.find((g) => within(g).queryByText('in another tab or browser'))).toHaveTextContent('Production');
  });

  it('[U7] a failed send keeps the draft and retries with the same resolution id', async () => {
    const user = userEvent.setup();
    const client = fakeClient();
    // A refusal the client does not re-send by itself (one it gave up on goes again on reconnect: submit-outage.test.ts).
    client.request.mockRejectedValueOnce(new AskdockError('UNAVAILABLE', 'the gateway is shutting down', { retryable: false }));
    setup([deployRecord({ questions: [deployRecord().questions[0]] })], client).render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not sent: the gateway is shutting down');
    expect(screen.getByRole('radio', { name: 'Production' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(client.request).toHaveBeenCalledTimes(2));
    const [a, b] = client.request.mock.calls.map((c) => c[1].resolutionId);
    expect(a).toBe(b);
  });

  it('[U7] a blocking question shows its time remaining', () => {
    // The clock stands still: a slow render must not turn 5:00 into 4:59.
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    try {
      setup([deployRecord({ expiresAtMs: now + 299_500 })]).render(<QuestionDock sessionKey="s1" composer={composer} />);
      expect(screen.getByRole('timer')).toHaveTextContent('5:00 left');
    } finally {
      clock.mockRestore();
    }
  });

  it('[U12] names options by label, describes them, announces politely, and axe finds no serious violations', async () => {
    setup([deployRecord()]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    expect(screen.getByRole('radiogroup', { name: 'Where should I deploy?' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Staging (Recommended)' })).toHaveAccessibleDescription('Safe to break');
    expect(screen.getByRole('status')).toHaveAttribute('aria-live', 'polite');
    const results = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } });
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
  });

  it('[U12] the live region names a new question here by its wording, and one in another session or the Inbox as waiting there', () => {
    const { client, render } = setup([]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    const status = screen.getByRole('status');
    act(() => client.emit('question.requested', { question: deployRecord() }));
    expect(status).toHaveTextContent(/^New question: Environment — Where should I deploy\?/);
    expect(status).not.toHaveTextContent('another session');
    act(() => client.emit('question.requested', { question: deployRecord({ id: 'q-other', sessionKey: 's2' }) }));
    expect(status).toHaveTextContent(/Environment — Where should I deploy\?.*, in another session$/);
    act(() => client.emit('question.requested', { question: deployRecord({ id: 'q-inbox', sessionKey: undefined }) }));
    expect(status).toHaveTextContent(/, in the Inbox$/);
  });

  it('[U12] narrow screens show a multi-question prompt as stacked cards with one Submit', async () => {
    const matchMedia = vi.fn((query: string) => ({ matches: true, media: query, addEventListener: () => {}, removeEventListener: () => {} }));
    vi.stubGlobal('matchMedia', matchMedia);
    try {
      const user = userEvent.setup();
      const { client, render } = setup([deployRecord()]);
      render(<QuestionDock sessionKey="s1" composer={composer} />);
      expect(screen.getByRole('group', { name: 'Environment' })).toBeInTheDocument();
      expect(screen.getByRole('group', { name: 'Notify' })).toBeInTheDocument();
      expect(screen.queryByText(/Question 1 of 2/)).toBeNull();
      expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
      await user.click(screen.getByRole('radio', { name: 'Production' }));
      await user.click(screen.getByRole('button', { name: 'Submit' }));
      expect(within(screen.getByRole('group', { name: 'Notify' })).getByRole('alert')).toBeInTheDocument();
      await user.click(screen.getByRole('checkbox', { name: 'Pager' }));
      await user.click(screen.getByRole('button', { name: 'Submit' }));
      expect(client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ answers: { env: ['Production'], notify: ['Pager'] } }));
      await axe.run(document.body).then((r) => expect(r.violations.filter((v) => v.impact === 'critical')).toEqual([]));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  /** U13: a question arriving while the tab is hidden shows in the title, until the tab is seen again. */
  function expectTitleWhileHidden(page: ReactNode) {
    const { client, render } = setup([]);
    render(page);
    document.title = 'askdock';
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    act(() => client.emit('question.requested', { question: deployRecord() }));
    expect(document.title).toBe('(1) Question: Environment — askdock');
    hidden.mockReturnValue(false);
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(document.title).toBe('askdock');
    hidden.mockRestore();
  }

  it('[U13] a question arriving while the tab is hidden shows in the title until the tab is seen again', () => {
    expectTitleWhileHidden(<QuestionDock sessionKey="s1" composer={composer} />);
  });

  it('[U13] the title shows it on a page without a dock too (the Inbox, a question link, the empty start)', () => {
    expectTitleWhileHidden(<p>No sessions yet.</p>);
  });
});
