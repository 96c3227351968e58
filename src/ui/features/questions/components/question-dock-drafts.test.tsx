// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { QuestionDock } from '../index.tsx';
import { DRAFTS_STORAGE_KEY, useDraftsStore } from '../stores/drafts.ts';
import { dock, dockTestHooks } from '../../../../testing/question-dock.tsx';
import { composer, deployRecord, lunchRecord, setup } from '../../../../testing/ui-questions.tsx';

// U6: drafts and which request takes the dock.
dockTestHooks();

describe('QuestionDock', () => {
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
});
