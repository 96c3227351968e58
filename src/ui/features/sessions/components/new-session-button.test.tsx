// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Scope } from '../../../../protocol/index.ts';
import { FAKE_TOKEN, resetStores, scopedClient, setup } from '../../../../testing/ui-questions.tsx';
import { rememberScopes } from '../../../lib/granted-scopes.ts';
import { NewSessionButton } from './new-session-button.tsx';

beforeEach(resetStores);
afterEach(cleanup);

describe('New session shows for sign-ins that may create one (C1, A5)', () => {
  it.each<Scope>(['operator.questions', 'operator.read'])('[A5][U12] %s alone: no "New session" button, which sessions.create would refuse', (scope) => {
    setup([], scopedClient([scope])).render(<NewSessionButton />);
    expect(screen.queryByRole('button', { name: 'New session' })).toBeNull();
  });

  it.each<Scope>(['operator.admin', 'operator.write', 'operator.sessions.write'])('[C1][U12] %s may create one: "New session" is there', (scope) => {
    setup([], scopedClient([scope])).render(<NewSessionButton />);
    expect(screen.getByRole('button', { name: 'New session' })).toBeEnabled();
  });

  it('[A5] before the gateway says what this sign-in holds: no "New session" that may vanish', () => {
    setup([], scopedClient(null)).render(<NewSessionButton />);
    expect(screen.queryByRole('button', { name: 'New session' })).toBeNull();
  });

  it('[C1][U12] a reload in a tab whose last hello granted operator.write: "New session" at once, before the next hello', () => {
    rememberScopes(FAKE_TOKEN, ['operator.write']);
    setup([], scopedClient(null)).render(<NewSessionButton />);
    expect(screen.getByRole('button', { name: 'New session' })).toBeEnabled();
  });

  it("[A5] scopes saved for another token (this browser signed in again elsewhere): nothing until this token's hello", () => {
    rememberScopes('adk_another-token-0123456789abcdef', ['operator.write']);
    setup([], scopedClient(null)).render(<NewSessionButton />);
    expect(screen.queryByRole('button', { name: 'New session' })).toBeNull();
  });
});
