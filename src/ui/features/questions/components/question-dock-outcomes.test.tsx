// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AskdockError } from '../../../../protocol/index.ts';
import { QuestionDock } from '../index.tsx';
import { answersFingerprint } from '../lib/resolved-here.ts';
import { useDraftsStore } from '../stores/drafts.ts';
import { dockTestHooks, Transcript } from '../../../../testing/question-dock.tsx';
import { composer, deployRecord, fakeClient, setup } from '../../../../testing/ui-questions.tsx';

// U5/U7/E5/E7: Skip, the summaries, failed and lost sends, time left.
dockTestHooks();

describe('QuestionDock', () => {
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
});
