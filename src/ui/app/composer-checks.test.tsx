// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuestionRecord, SecretRequestRecord } from '../../protocol/index.ts';
import { OFFER_PROJECT } from '../../answers/kinds/approval-offers.ts';
import { Composer } from '../features/chat/components/composer.tsx';
import { dockCodeReady, QuestionDock } from '../features/questions/index.tsx';
import { secretRequestsKey } from '../features/questions/api/get-secret-requests.ts';
import { fakeClient, lunchRecord, personClient, resetStores, setup } from '../../testing/ui-questions.tsx';
import { useComposerChecks } from './composer-checks.tsx';

function Harness({ sendChat }: { sendChat: (text: string) => Promise<void> }) {
  const { send, dialog } = useComposerChecks('s1', sendChat);
  return (
    <>
      <QuestionDock sessionKey="s1" composer={<Composer onSend={send} />} />
      {dialog}
    </>
  );
}

const message = () => screen.getByRole('textbox', { name: 'Message' });
const alert = () => screen.getByRole('alertdialog');
const chatSends = (client: ReturnType<typeof fakeClient>) => client.request.mock.calls.filter(([m]) => m === 'chat.send');

// The dialog and the checks are lazy chunks: loaded once here, so no step below races their first import on a busy machine.
beforeAll(async () => {
  await dockCodeReady;
  await Promise.all([import('../components/ui/alert-dialog.tsx'), import('./composer-check-questions.ts')]);
});
beforeEach(resetStores);
afterEach(cleanup);

describe('composer checks', () => {
  it('[U8][PT1] "2" while one async question waits asks "Send as the answer to Lunch?"; yes answers it through the outbox', async () => {
    const user = userEvent.setup();
    const sendChat = vi.fn(async () => {});
    const { client, render } = setup([lunchRecord()]);
    render(<Harness sendChat={sendChat} />);
    await user.type(message(), '2{Enter}');
    // The dialog's code loads the first time it is needed.
    await screen.findByRole('alertdialog');
    expect(alert()).toHaveAccessibleName('Send as the answer to Lunch?');
    expect(alert()).toHaveAccessibleDescription(/"2" reads as "Sushi"/);
    await user.click(within(alert()).getByRole('button', { name: 'Send as answer' }));
    await waitFor(() => expect(chatSends(client)).toHaveLength(1));
    expect(chatSends(client)[0][1]).toMatchObject({ message: '> Lunch\nSushi', replyTo: { questionId: 'q-lunch', answers: { lunch: ['Sushi'] } } });
    expect(sendChat).not.toHaveBeenCalled();
    expect(message()).toHaveValue('');
  });

  it('[G5][PT1][Q9] a typed number counts the options this identity is shown: a guest\'s "2" is Deny, an admin\'s "1" the offer shown first', async () => {
    // An agent's own approval item may list an offer first: read against the whole list, a guest's "2" would be Allow.
    const approval = lunchRecord({
      id: 'q-approval',
      runId: 'r1',
      questions: [{ id: 'approval', kind: 'approval', header: 'Bash', question: 'Allow Bash(npm run test)?', options: [{ label: OFFER_PROJECT }, { label: 'Allow' }, { label: 'Deny' }] }],
    } as Partial<QuestionRecord>);
    const answerWith = async (scopes: string[], typed: string) => {
      const user = userEvent.setup();
      const client = fakeClient();
      Object.assign(client.hello!.auth, { scopes });
      const { unmount } = setup([approval], client).render(<Harness sendChat={vi.fn(async () => {})} />);
      await user.type(message(), `${typed}{Enter}`);
      await screen.findByRole('alertdialog');
      const said = within(alert()).getByText(/reads as/).textContent;
      await user.click(within(alert()).getByRole('button', { name: 'Send as answer' }));
      await waitFor(() => expect(chatSends(client)).toHaveLength(1));
      unmount();
      resetStores();
      return { said, params: chatSends(client)[0][1] };
    };
    const guest = await answerWith(['operator.sessions.write'], '2');
    expect(guest.said).toContain('"2" reads as "Deny"');
    expect(guest.params).toMatchObject({ replyTo: { questionId: 'q-approval', answers: { approval: ['Deny'] } } });
    const admin = await answerWith(['operator.admin'], '1');
    expect(admin.said).toContain(`"1" reads as "${OFFER_PROJECT}"`);
    expect(admin.params).toMatchObject({ replyTo: { questionId: 'q-approval', answers: { approval: [OFFER_PROJECT] } } });
  });

  it('[U8] no sends it as a chat message; Esc sends nothing and gives the words back', async () => {
    const user = userEvent.setup();
    const sendChat = vi.fn(async () => {});
    const { client, render } = setup([lunchRecord()]);
    render(<Harness sendChat={sendChat} />);
    await user.type(message(), 'sushi{Enter}');
    await screen.findByRole('alertdialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(message()).toHaveValue('sushi');
    expect(sendChat).not.toHaveBeenCalled();
    await user.click(message());
    await user.keyboard('{Enter}');
    await screen.findByRole('alertdialog');
    await user.click(within(alert()).getByRole('button', { name: 'Send as message' }));
    await waitFor(() => expect(sendChat).toHaveBeenCalledExactlyOnceWith('sushi'));
    expect(chatSends(client)).toHaveLength(0);
  });

  it('[U8] free text, or two questions waiting, goes as a message without asking', async () => {
    const user = userEvent.setup();
    const sendChat = vi.fn(async () => {});
    setup([lunchRecord(), lunchRecord({ id: 'q-2', createdAtMs: Date.now() + 5 })]).render(<Harness sendChat={sendChat} />);
    await user.type(message(), '2{Enter}');
    await waitFor(() => expect(sendChat).toHaveBeenCalledWith('2'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('[W3] a pasted token asks before it is sent; Keep editing gives it back, Send anyway sends it', async () => {
    const user = userEvent.setup();
    const sendChat = vi.fn(async () => {});
    setup([]).render(<Harness sendChat={sendChat} />);
    const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    await user.click(message());
    await user.paste(`use ${token}`);
    await user.keyboard('{Enter}');
    await screen.findByRole('alertdialog');
    expect(alert()).toHaveAccessibleName('This looks like a credential');
    expect(alert()).not.toHaveTextContent(token);
    await user.click(within(alert()).getByRole('button', { name: 'Keep editing' }));
    expect(message()).toHaveValue(`use ${token}`);
    expect(sendChat).not.toHaveBeenCalled();
    await user.click(message());
    await user.keyboard('{Enter}');
    await screen.findByRole('alertdialog');
    await user.click(within(alert()).getByRole('button', { name: 'Send anyway' }));
    await waitFor(() => expect(sendChat).toHaveBeenCalledExactlyOnceWith(`use ${token}`));
  });

  const TOKEN = 'sk-' + 'proj-a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6';
  /** A GITHUB_TOKEN request pending in s1 (routed when `route` is given); the person pastes a token and presses Enter. */
  async function pasteTokenBeside(client: ReturnType<typeof fakeClient>, route?: SecretRequestRecord['route']) {
    const user = userEvent.setup();
    const sendChat = vi.fn(async () => {});
    Object.assign(client.hello!, { features: { methods: ['secret.list', 'secret.provide'], events: [] } });
    const request: SecretRequestRecord = { id: 'sec-1', sessionKey: 's1', name: 'GITHUB_TOKEN', description: 'To push', askedBy: 'agent', status: 'pending', createdAtMs: 1, expiresAtMs: Date.now() + 60_000, route };
    const { queryClient, render } = setup([], client);
    queryClient.setQueryData(secretRequestsKey, [request]);
    render(<Harness sendChat={sendChat} />);
    await user.click(message());
    await user.paste(TOKEN);
    await user.keyboard('{Enter}');
    await screen.findByRole('alertdialog');
    return { user, sendChat };
  }

  it('[W3][W4] with a secret request pending, the token can go as that secret instead, never as a message', async () => {
    const client = fakeClient();
    const { user, sendChat } = await pasteTokenBeside(client);
    expect(alert()).toHaveAccessibleDescription(/GITHUB_TOKEN/);
    await user.click(within(alert()).getByRole('button', { name: 'Send as secret' }));
    await waitFor(() => expect(client.request).toHaveBeenCalledWith('secret.provide', { id: 'sec-1', value: TOKEN }));
    expect(sendChat).not.toHaveBeenCalled();
    expect(message()).toHaveValue('');
  });

  it('[E3][W3][W4] a secret request routed to someone else is not offered: bo\'s token asks only "Send anyway", never "Send as secret"', async () => {
    const client = personClient('bo');
    const { user } = await pasteTokenBeside(client, { escalation: 'keys', step: 0, notified: ['ana'], eligible: ['ana'], names: { ana: 'Ana' } });
    expect(alert()).toHaveAccessibleName('This looks like a credential');
    expect(alert()).not.toHaveAccessibleDescription(/GITHUB_TOKEN/);
    expect(within(alert()).queryByRole('button', { name: 'Send as secret' })).toBeNull();
    await user.click(within(alert()).getByRole('button', { name: 'Keep editing' }));
    expect(message()).toHaveValue(TOKEN);
    expect(client.request).not.toHaveBeenCalledWith('secret.provide', expect.anything());
  });
});
