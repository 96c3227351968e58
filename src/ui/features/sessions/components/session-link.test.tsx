// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Session } from '../../../../protocol/index.ts';
import { SessionLink } from './session-link.tsx';

afterEach(cleanup);

describe('U12 a session is a link named by what it shows', () => {
  it('[U12] the link reads the agent and its last activity apart, never run together', () => {
    const session: Session = { key: 's1', title: 'Deploy', createdBy: 'operator', agentId: 'build-bot', createdAtMs: Date.now(), lastMessageAtMs: null, pendingQuestions: 0 };
    render(<SessionLink session={session} active={false} />);
    expect(screen.getByRole('link', { name: /build-bot,\s*just now$/ })).toBeVisible();
  });
});
