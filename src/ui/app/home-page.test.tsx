// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Scope } from '../../protocol/index.ts';
import { resetStores, scopedClient, setup } from '../../testing/ui-questions.tsx';
import { HomePage } from './home-page.tsx';

beforeEach(resetStores);
afterEach(cleanup);

/** The home page of a sign-in holding `scopes`, on a gateway with no sessions yet. */
function homeWithNoSessions(scopes: Scope[]) {
  const client = scopedClient(scopes);
  const answer = client.request.getMockImplementation()!;
  client.request.mockImplementation(async (method, params) => (method === 'sessions.list' ? { sessions: [] } : answer(method, params)));
  setup([], client).render(<HomePage />);
}

describe('the home page with no sessions, for a sign-in that may not start one (A3, A5, C1)', () => {
  it('[A3][A5] operator.read alone sees no questions: it is told sessions will show to read, not that questions will', async () => {
    homeWithNoSessions(['operator.read']);
    expect(await screen.findByRole('heading', { name: 'No sessions yet', level: 1 })).toBeVisible();
    expect(screen.getByText('Sessions started by agents or other sign-ins will appear here to read.')).toBeVisible();
    expect(screen.queryByText(/Questions that reach this sign-in/)).toBeNull();
    expect(screen.queryByText(/Inbox/)).toBeNull();
  });

  it('[A3][A5] operator.read with operator.questions: questions that reach it will show, ready to answer; the Inbox holds sessionless ones', async () => {
    homeWithNoSessions(['operator.read', 'operator.questions']);
    expect(await screen.findByText('Questions that reach this sign-in will appear here, ready to answer.')).toBeVisible();
    expect(screen.getByText(/questions asked without a session wait in the/)).toBeVisible();
  });

  it.each<[Scope[]]>([[['operator.read']], [['operator.read', 'operator.questions']]])('[C1] %j: names every scope that may start a session, not operator.write alone', async (scopes) => {
    homeWithNoSessions(scopes);
    expect(await screen.findByText(/^Sessions start from an agent or from a sign-in that may start them \(operator\.admin, operator\.write or operator\.sessions\.write\)/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'New session' })).toBeNull();
  });
});
