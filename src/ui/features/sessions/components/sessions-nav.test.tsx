// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AskdockError, type Session } from '../../../../protocol/index.ts';
import { GatewayProvider } from '../../../lib/gateway.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { fakeClient } from '../../../../testing/ui-questions.tsx';
import { sessionsKey } from '../api/get-sessions.ts';
import { useSessionsSync } from '../api/use-sessions-sync.ts';
import { sortSessions } from '../lib/session-list.ts';
import { SessionsNav } from './sessions-nav.tsx';

// Each row draws one RelativeTime: counting its renders counts the rows drawn.
const drawn = vi.hoisted(() => ({ rows: [] as number[] }));
vi.mock('../../../components/relative-time.tsx', () => ({
  RelativeTime: ({ ms, className }: { ms: number; className?: string }) => {
    drawn.rows.push(ms);
    return <time className={className}>{ms}</time>;
  },
}));

const BASE = 1_800_000_000_000;
const session = (i: number, over: Partial<Session> = {}): Session => ({
  key: `s${i}`,
  title: `Session ${i}`,
  createdBy: 'operator',
  agentId: 'agent',
  createdAtMs: BASE + i,
  lastMessageAtMs: null,
  pendingQuestions: 0,
  ...over,
});

function Synced() {
  useSessionsSync();
  return <SessionsNav activeKey="s3" />;
}

/** Renders `ui` with the sessions list already `sessions` and a fake gateway client, which it returns to emit events. */
function renderWith(sessions: Session[], ui: ReactNode) {
  const client = fakeClient();
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  queryClient.setQueryData(sessionsKey, sessions);
  render(
    <QueryClientProvider client={queryClient}>
      <GatewayProvider client={client}>{ui}</GatewayProvider>
    </QueryClientProvider>,
  );
  return { client };
}

afterEach(cleanup);

describe('SessionsNav', () => {
  it('[C5] a session.updated event draws again only the row of the session it carries', async () => {
    const { client } = renderWith(sortSessions(Array.from({ length: 60 }, (_, i) => session(i))), <Synced />);
    const nav = screen.getByRole('navigation', { name: 'Sessions' });
    expect(within(nav).getAllByRole('link')).toHaveLength(60);
    drawn.rows.length = 0;

    // A question is now pending in session 7: its row shows the count, and no other row is drawn again.
    await act(async () => {
      client.emit('session.updated', { session: session(7, { pendingQuestions: 1 }) });
      await new Promise((r) => setTimeout(r, 0));
    });
    const row = within(nav).getAllByRole('link').find((link) => link.getAttribute('title') === 'Session 7');
    expect(row).toHaveTextContent(/1 question pending$/);
    expect(drawn.rows).toEqual([BASE + 7]);
    expect(within(nav).getAllByRole('link')).toHaveLength(60);
  });

  it('[U15] groups rows by last activity (Today, Yesterday, Earlier); each row names its source and tells equal titles apart by agent and last activity', () => {
    const now = Date.now();
    renderWith(
      sortSessions([
        session(1, { title: 'deploy', createdAtMs: now - 60_000 }),
        session(2, { title: 'deploy', agentId: 'build-bot', createdAtMs: now - 60_000 - 86_400_000 }),
        session(3, { title: 'Claude Code · web', createdAtMs: now - 10 * 86_400_000 }),
      ]),
      <SessionsNav />,
    );
    const nav = screen.getByRole('navigation', { name: 'Sessions' });
    const headings = within(nav).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(headings[0]).toBe('Today');
    expect(headings.at(-1)).toBe('Earlier');
    const [first, second, third] = within(nav).getAllByRole('link');
    expect(first).toHaveTextContent(/^deploy, Agent chat: agent ·/);
    expect(second).toHaveTextContent(/^deploy, Agent chat: build-bot ·/);
    expect(third).toHaveTextContent(/^Claude Code · web, MCP client: agent ·/);
  });

  it('[U15] the menu button (the drawer under 640 px) says how many requests wait in the other sessions', () => {
    renderWith(sortSessions([session(1), session(2), session(3)]), <SessionsNav activeKey="s1" pendingCounts={new Map([['s1', 4], ['s2', 1], ['s3', 2]])} />);
    const menu = screen.getByRole('button', { name: /^Open sessions/ });
    expect(menu).toHaveAttribute('aria-label', 'Open sessions, 3 waiting elsewhere');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveTextContent('3');
  });
});

describe('SessionsNav presence (U18)', () => {
  it('[U18] each row describes its agent\'s presence; session.presence events change it, session.updated keeps it', async () => {
    const left = new Date(2027, 0, 15, 14, 5).getTime();
    const { client } = renderWith([session(3, { agentPresence: { state: 'absent', sinceMs: null } })], <Synced />);
    const link = () => within(screen.getByRole('navigation', { name: 'Sessions' })).getByRole('link');
    expect(link()).toHaveAccessibleDescription('No agent connected');
    expect(link()).toHaveAccessibleName(/^Session 3/);
    // The presence describes the link; its words never join the link's name (the source and agent subtitle do).
    expect(link()).not.toHaveAccessibleName(/connected|working|absent/i);
    await act(async () => client.emit('session.presence', { sessionKey: 's3', agentPresence: { state: 'working', sinceMs: BASE } }));
    await waitFor(() => expect(link()).toHaveAccessibleDescription('Agent working'));
    await act(async () => client.emit('session.updated', { session: session(3, { title: 'Renamed' }) }));
    await waitFor(() => expect(link()).toHaveAccessibleName(/^Renamed/));
    expect(link()).toHaveAccessibleDescription('Agent working');
    await act(async () => client.emit('session.presence', { sessionKey: 's3', agentPresence: { state: 'absent', sinceMs: left } }));
    await waitFor(() => expect(link()).toHaveAccessibleDescription(/^Agent absent since (Jan \d+ )?\d{2}:\d{2}$/));
  });
});

describe('SessionsNav for a sign-in that may not list sessions (A2, A5)', () => {
  it('[A5][A3] with operator.questions alone it says this sign-in cannot list sessions, naming the scope, not "No sessions yet"', async () => {
    const client = fakeClient('bo');
    client.hello = { ...client.hello, auth: { identity: 'bo', role: 'operator', scopes: ['operator.questions'] } } as typeof client.hello;
    const answer = client.request.getMockImplementation()!;
    client.request.mockImplementation(async (method, params) => {
      if (method !== 'sessions.list') return answer(method, params);
      throw new AskdockError('FORBIDDEN', 'sessions.list needs scope operator.admin or operator.read; identity "bo" has operator.questions', {
        details: { method, needed: ['operator.admin', 'operator.read'] },
      });
    });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <GatewayProvider client={client}>
          <Synced />
        </GatewayProvider>
      </QueryClientProvider>,
    );
    const nav = screen.getByRole('navigation', { name: 'Sessions' });
    await within(nav).findByText(/This sign-in cannot list sessions \(that needs the operator\.read scope\)/);
    expect(nav).not.toHaveTextContent('No sessions yet');
    expect(client.request.mock.calls.filter(([method]) => method === 'sessions.list')).toHaveLength(1);
  });
});
