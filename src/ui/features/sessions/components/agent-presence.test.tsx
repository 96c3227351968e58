// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Session } from '../../../../protocol/index.ts';
import { AgentPresenceIndicator } from './agent-presence.tsx';
import { SessionLink } from './session-link.tsx';
import { runsActions } from '../../chat/stores/runs-store.ts';

afterEach(cleanup);

const working = { state: 'working', sinceMs: null } as const;

describe('U18 presence while the agent waits on the person', () => {
  it('[U18] the session header says the agent waits for you, not that it is working, while a blocking question is open', () => {
    render(<AgentPresenceIndicator presence={working} waiting />);
    expect(screen.getByText('Agent waiting for you')).toBeVisible();
    expect(screen.queryByText('Agent working')).toBeNull();
  });

  it('[U18] a session row with a question waiting is described as waiting for you; without one, as working', () => {
    const session: Session = { key: 's1', title: 'Deploy', createdBy: 'operator', agentId: 'agent', createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 1, agentPresence: working };
    const { rerender } = render(<SessionLink session={session} active={false} />);
    expect(screen.getByRole('link', { name: /Deploy/ })).toHaveAccessibleDescription('Agent waiting for you');
    rerender(<SessionLink session={{ ...session, pendingQuestions: 0 }} active={false} />);
    expect(screen.getByRole('link', { name: /Deploy/ })).toHaveAccessibleDescription('Agent working');
  });
});

describe('U18 a failed run shows in the sessions list', () => {
  it('[U18] a session whose agent stopped with an error has a named marker in its row', () => {
    const session: Session = { key: 's2', title: 'Nightly', createdBy: 'operator', agentId: 'agent', createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 0 };
    render(<SessionLink session={session} active={false} />);
    expect(screen.queryByRole('img', { name: 'The agent stopped with an error' })).toBeNull();
    act(() => runsActions().runEnded('s2', 'run-1', 'error'));
    expect(within(screen.getByRole('link', { name: /Nightly/ })).getByRole('img', { name: 'The agent stopped with an error' })).toBeVisible();
  });
});
