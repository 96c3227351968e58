// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Scope } from '../../protocol/index.ts';
import { FAKE_TOKEN, resetStores, scopedClient, setup } from '../../testing/ui-questions.tsx';
import { rememberScopes } from '../lib/granted-scopes.ts';
import { SessionComposer } from './session-composer.tsx';

beforeEach(resetStores);
afterEach(cleanup);

describe('the composer shows for sign-ins that may send (C2, A5)', () => {
  it('[A5][U12] operator.questions alone: no "Message" box, whose every message chat.send would refuse; a note says what sending needs', () => {
    setup([], scopedClient(['operator.questions'])).render(<SessionComposer sessionKey="s1" />);
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(screen.getByText(/^This sign-in cannot send messages \(that needs the operator\.write scope\)/)).toBeVisible();
  });

  it('[A5] operator.read alone reads the conversation but may not send: the same note', () => {
    setup([], scopedClient(['operator.read'])).render(<SessionComposer sessionKey="s1" />);
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    expect(screen.getByText(/cannot send messages/)).toBeVisible();
  });

  it.each<Scope>(['operator.admin', 'operator.write', 'operator.sessions.write'])('[C2][U12] %s may send: the "Message" box is there', (scope) => {
    setup([], scopedClient(['operator.questions', scope])).render(<SessionComposer sessionKey="s1" />);
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeVisible();
    expect(screen.queryByText(/cannot send messages/)).toBeNull();
  });

  it('[A5] before the gateway says what this sign-in holds: neither a Message box that may vanish nor the note', () => {
    setup([], scopedClient(null)).render(<SessionComposer sessionKey="s1" />);
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    expect(screen.queryByText(/cannot send messages/)).toBeNull();
  });

  it('[A5][U12] a reload in a tab whose last hello granted operator.write: the Message box at once, before the next hello', () => {
    rememberScopes(FAKE_TOKEN, ['operator.write']);
    setup([], scopedClient(null)).render(<SessionComposer sessionKey="s1" />);
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeVisible();
  });

  it('[A5] a reload in a tab whose last hello granted operator.questions alone: the note at once, no Message box', () => {
    rememberScopes(FAKE_TOKEN, ['operator.questions']);
    setup([], scopedClient(null)).render(<SessionComposer sessionKey="s1" />);
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    expect(screen.getByText(/cannot send messages/)).toBeVisible();
  });
});
