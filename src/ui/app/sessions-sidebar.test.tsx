// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../protocol/index.ts';
import { deployRecord, resetStores, setup } from '../../testing/ui-questions.tsx';
import { sessionsKey } from '../features/sessions/api/get-sessions.ts';
import { SessionsSidebar } from './sessions-sidebar.tsx';

// The list's fixed parts, counted: a question's count changing must not draw them again.
const drawn = vi.hoisted(() => ({ search: 0, newSession: 0 }));
vi.mock('../features/search/components/search-box.tsx', () => ({
  SearchBox: () => {
    drawn.search++;
    return <input aria-label="Search" />;
  },
}));
vi.mock('../features/sessions/components/new-session-button.tsx', () => ({
  NewSessionButton: () => {
    drawn.newSession++;
    return <button type="button">New session</button>;
  },
}));

beforeEach(resetStores);
afterEach(cleanup);

const session: Session = { key: 's1', title: 'Work', createdBy: 'operator', agentId: null, createdAtMs: 1, lastMessageAtMs: 1, pendingQuestions: 0 };

describe('SessionsSidebar', () => {
  it('[U15] a question arriving redraws its session\'s count, not the search box or New session', async () => {
    const { client, queryClient, render } = setup([]);
    queryClient.setQueryData(sessionsKey, [session]);
    render(<SessionsSidebar activeKey="s1" />);
    const nav = within(screen.getByRole('navigation', { name: 'Sessions' }));
    await nav.findByRole('link', { name: /Work/ });
    drawn.search = drawn.newSession = 0;

    act(() => client.emit('question.requested', { question: deployRecord() }));
    await waitFor(() => expect(nav.getByRole('link', { name: /Work/ })).toHaveTextContent(/1 question pending$/));
    expect(drawn).toEqual({ search: 0, newSession: 0 });
  });
});
