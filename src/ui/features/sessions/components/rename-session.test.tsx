// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayProvider } from '../../../lib/gateway.tsx';
import { fakeClient } from '../../../../testing/ui-questions.tsx';
import { RenameSession } from './rename-session.tsx';

afterEach(cleanup);

function setup() {
  const client = fakeClient();
  client.request.mockImplementation(async (method, params) => {
    if (method !== 'sessions.update') throw new Error(`unexpected ${method}`);
    return { session: { key: params.sessionKey, title: params.title, createdBy: 'operator', agentId: 'agent', createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 0 } };
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <GatewayProvider client={client}>
        <div className="session-title-row">
          <h1>deploy</h1>
          <RenameSession sessionKey="s1" title="deploy" />
        </div>
      </GatewayProvider>
    </QueryClientProvider>,
  );
  return client;
}

describe('RenameSession', () => {
  it('[U15][U12] by keyboard alone: the pencil opens the title in place, Enter saves it through sessions.update', async () => {
    const user = userEvent.setup();
    const client = setup();
    screen.getByRole('button', { name: 'Rename session' }).focus();
    await user.keyboard('{Enter}');
    const field = screen.getByRole('textbox', { name: 'Session title' });
    expect(screen.getByRole('dialog', { name: 'Rename session' })).toContainElement(field);
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.keyboard('Spring release{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(client.request).toHaveBeenCalledWith('sessions.update', { sessionKey: 's1', title: 'Spring release' });
  });

  it('[U15][U12] Escape leaves the title as it was and gives focus back to the pencil', async () => {
    const user = userEvent.setup();
    const client = setup();
    await user.click(screen.getByRole('button', { name: 'Rename session' }));
    await user.keyboard('changed{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Rename session' })).toHaveFocus();
    expect(client.request).not.toHaveBeenCalled();
  });
});
