// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../protocol/index.ts';
import { deployRecord, resetStores, setup } from '../../testing/ui-questions.tsx';
import { fakeTranscriptLayout } from '../../testing/transcript-layout.ts';
import '../../testing/resize-observer.ts';
import { sessionsKey } from '../features/sessions/api/get-sessions.ts';
import { runLabel } from '../../cli/hook-title.ts';
import { SessionPage } from './session-page.tsx';

// The rename control sits in the page's title row and renders whenever the page does: counting it counts the page.
const page = vi.hoisted(() => ({ renders: 0 }));
vi.mock('../features/sessions/components/rename-session.tsx', () => ({
  RenameSession: () => {
    page.renders++;
    return <button type="button">Rename</button>;
  },
}));

fakeTranscriptLayout();
beforeEach(resetStores);
afterEach(resetStores);

const session: Session = {
  key: 's1',
  title: 'Work',
  createdBy: 'operator',
  agentId: null,
  createdAtMs: 1,
  lastMessageAtMs: 1,
  pendingQuestions: 0,
  agentPresence: { state: 'working', sinceMs: 1 },
};

describe('SessionPage', () => {
  it('[U1][U18] a blocking question arriving and ending renders the dock, the presence line and the log, not the page around them', async () => {
    const { client, queryClient, render } = setup([]);
    // A gateway without the demo agent's method: the page asks nothing about it.
    Object.assign(client, { hello: { ...client.hello, features: { methods: [], events: [] } } });
    queryClient.setQueryData(sessionsKey, [session]);
    // The page's chunks (the log, the pending messages, the rename control), loaded before it renders as a browser has them by then.
    await Promise.all([import('./session-conversation.tsx'), import('./pending-messages-feed.tsx')]);
    await act(async () => {
      render(<SessionPage sessionKey="s1" />);
    });
    await screen.findByText('No messages yet');
    const log = screen.getByRole('log', { name: 'Conversation' });
    await screen.findByRole('button', { name: 'Rename' });
    page.renders = 0;

    // Arrives: the dock shows it and the header says the agent waits on the person (U18), both from the cache's news.
    act(() => client.emit('question.requested', { question: deployRecord() }));
    await screen.findByRole('region', { name: 'Questions' });
    await screen.findByText('Agent waiting for you');

    // Ends: its summary joins the conversation and the agent is working again.
    act(() => client.emit('question.resolved', { id: 'q-deploy', sessionKey: 's1', status: 'skipped' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Questions' })).toBeNull());
    await within(log).findByText(/Where should I deploy\?/);
    await screen.findByText('Agent working');
    expect(page.renders).toBe(0);
  }, 60_000);
});

/** The first time of day in a text, as written: `18:08`, `06:08 PM`. */
const clockIn = (text: string | null) => text?.match(/\d{1,2}:\d{2}(?:\s?[AP]M)?/i)?.[0];

describe('one clock in the session header', () => {
  it('[U18] the absent line, its hover title and a hook session\'s title write the same instant the same way', async () => {
    const { client, queryClient, render } = setup([]);
    Object.assign(client, { hello: { ...client.hello, features: { methods: [], events: [] } } });
    // Today, in the evening: a 12-hour clock and a 24-hour one differ, and a time today is written without its day.
    const at = new Date();
    at.setHours(18, 8, 0, 0);
    const title = `claude-code · repo · ${runLabel(undefined, at)}`;
    queryClient.setQueryData(sessionsKey, [{ ...session, title, agentPresence: { state: 'absent', sinceMs: at.getTime() } }]);
    render(<SessionPage sessionKey="s1" />);
    const heading = await screen.findByRole('heading', { name: title });
    const absent = await screen.findByText(/^Agent absent since/);
    expect(clockIn(heading.textContent)).toBe('18:08');
    expect(clockIn(absent.textContent)).toBe(clockIn(heading.textContent));
    expect(clockIn(absent.closest('[title]')?.getAttribute('title') ?? null)).toBe('18:08');
  });
});
