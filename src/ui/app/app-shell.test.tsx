// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deployRecord, fakeClient, resetStores, setup } from '../../testing/ui-questions.tsx';
import { AppShell } from './app-shell.tsx';

/** A gateway that offers nothing beyond the questions: the shell's other parts stay quiet. */
function shell() {
  const client = fakeClient();
  Object.assign(client, { hello: { ...client.hello, features: { methods: [], events: [] }, snapshot: { sessions: [], hasMore: false } } });
  return setup([], client);
}

beforeEach(resetStores);
afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

describe('the app shell', () => {
  it('[U12] a page without a dock (home, Rules, On call) still announces a new question in a polite live region; a session page once, by its dock', async () => {
    for (const path of ['/', '/rules', '/on-call']) {
      window.history.replaceState(null, '', path);
      const { client, render } = shell();
      await act(async () => void render(<AppShell />));
      act(() => client.emit('question.requested', { question: deployRecord({ id: `q${path}` }) }));
      const said = await screen.findByText(/^New question: Environment — Where should I deploy\?/);
      expect(said.closest('[aria-live="polite"]')).not.toBeNull();
      expect(said).toHaveTextContent(/, in a session$/);
      cleanup();
      resetStores();
    }
    window.history.replaceState(null, '', '/s/s1');
    const { client, render } = shell();
    await act(async () => void render(<AppShell />));
    act(() => client.emit('question.requested', { question: deployRecord() }));
    expect(await screen.findAllByText(/^New question: Environment/)).toHaveLength(1);
  });
});
