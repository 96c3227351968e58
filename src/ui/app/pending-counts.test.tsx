// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../../protocol/index.ts';
import { dockCodeReady, QuestionDock } from '../features/questions/index.tsx';
import { skipActions } from '../features/questions/stores/skips.ts';
import { composer, deployRecord, lunchRecord, resetStores, setup } from '../../testing/ui-questions.tsx';
import { sessionsKey } from '../features/sessions/api/get-sessions.ts';
import { secretRequestsKey } from '../features/questions/api/get-secret-requests.ts';
import { InboxLink } from './inbox-link.tsx';
import { SessionsSidebar } from './sessions-sidebar.tsx';

/** As app-shell.tsx composes them: the sessions list gets its counts from the questions feature. */
function Shell() {
  return (
    <>
      <SessionsSidebar activeKey="s1" />
      <QuestionDock sessionKey="s1" composer={composer} />
    </>
  );
}

const session = (key: string, title: string, pendingQuestions: number): Session => ({
  key,
  title,
  createdBy: 'operator',
  agentId: null,
  createdAtMs: 1,
  lastMessageAtMs: 1,
  pendingQuestions,
});

// The app connects only once the dock's chunks are in; so do these tests.
beforeAll(() => dockCodeReady);
beforeEach(resetStores);
afterEach(cleanup);

describe('pending counts', () => {
  it('[U1][U6][U8] one count of requests in the collapsed bar, the arrows and the sessions list; skipped and queued answers not counted', async () => {
    const user = userEvent.setup();
    const records = [
      deployRecord(),
      lunchRecord(),
      lunchRecord({ id: 'q-skipped', createdAtMs: Date.now() + 2 }),
      lunchRecord({ id: 'q-queued', createdAtMs: Date.now() + 3 }),
      lunchRecord({ id: 'q-other', sessionKey: 's2' }),
    ];
    const { queryClient, outbox, render } = setup(records);
    // The gateway counts every question pending it holds; this browser knows better about what it skipped or queued.
    queryClient.setQueryData(sessionsKey, [session('s1', 'Work', 4), session('s2', 'Other', 1)]);
    act(() => skipActions().asyncSkipped('q-skipped'));
    await outbox.enqueue({ sessionKey: 's1', questionId: 'q-queued', text: '> Lunch\nSushi' });
    render(<Shell />);
    const dock = () => screen.getByRole('region', { name: 'Questions' });
    await waitFor(() => expect(within(dock()).getByText('1/2')).toBeInTheDocument());
    const nav = within(screen.getByRole('navigation', { name: 'Sessions' }));
    expect(nav.getByRole('link', { name: /Work/ })).toHaveTextContent(/2 questions pending/);
    expect(nav.getByRole('link', { name: /Other/ })).toHaveTextContent(/1 question pending$/);
    await user.click(screen.getByRole('button', { name: 'Collapse questions' }));
    expect(within(dock()).getByText('2 pending')).toBeInTheDocument();
  });

  it('[U15][W4] the Inbox badge counts sessionless secret requests beside sessionless questions', async () => {
    const { queryClient, render } = setup([lunchRecord({ id: 'q-inbox', sessionKey: undefined })]);
    queryClient.setQueryData(sessionsKey, [session('s1', 'Work', 0)]);
    const secret = (id: string, sessionKey?: string) => ({
      id,
      name: 'OPENAI_API_KEY',
      askedBy: 'agent',
      createdAtMs: 1,
      expiresAtMs: Date.now() + 900_000,
      status: 'pending' as const,
      ...(sessionKey ? { sessionKey } : {}),
    });
    queryClient.setQueryData(secretRequestsKey, [secret('k-inbox'), secret('k-session', 's1')]);
    render(<SessionsSidebar activeKey="s1" first={<InboxLink active={false} />} />);
    const nav = within(screen.getByRole('navigation', { name: 'Sessions' }));
    await waitFor(() => expect(nav.getByRole('link', { name: /Inbox/ })).toHaveTextContent(/2 questions pending/));
  });
});
