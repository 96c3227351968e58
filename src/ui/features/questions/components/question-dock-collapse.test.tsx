// @vitest-environment jsdom
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { oneOf } from '../../../../testing/question-items.ts';
import { QuestionDock, expandDock } from '../index.tsx';
import { useDraftsStore } from '../stores/drafts.ts';
import { dock, dockTestHooks, Transcript } from '../../../../testing/question-dock.tsx';
import { composer, deployRecord, lunchRecord, setup } from '../../../../testing/ui-questions.tsx';

// U1/U8/U11: collapsing and reopening the dock, what the transcript and the collapsed bar offer.
dockTestHooks();

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
});
