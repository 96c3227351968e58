// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SecretRequestRecord } from '../../../../protocol/index.ts';
import { dockCodeReady, QuestionDock } from '../index.tsx';
import { secretRequestsKey } from '../api/get-secret-requests.ts';
import { composer, deployRecord, personClient as person, resetStores, secretRecord as secret, setup } from '../../../../testing/ui-questions.tsx';

/** Routed to Ana only: anyone else who may see it reads it. */
const forAna = () => secret({ route: { escalation: 'keys', step: 0, notified: ['ana'], eligible: ['ana'] } });

function dockFor(identity: string, secrets: SecretRequestRecord[], questions = [deployRecord()]) {
  const s = setup(questions, person(identity));
  s.queryClient.setQueryData(secretRequestsKey, secrets);
  s.render(<QuestionDock sessionKey="s1" composer={composer} />);
  return { ...s, dock: within(screen.getByRole('region', { name: 'Questions' })) };
}

// The app connects only once the dock's chunks (its panels and slim bars) are in; so do these tests.
beforeAll(() => dockCodeReady);
beforeEach(resetStores);
afterEach(cleanup);

describe('what the person can act on comes first (E3 for K1)', () => {
  it('[E3][W4] a routed secret request that does not wait for them stays read-only behind the question they may answer', async () => {
    const { dock } = dockFor('cy', [forAna()]);
    expect(await dock.findByRole('radio', { name: /^Staging/ })).toBeInTheDocument();
    expect(await dock.findByText('OPENAI_API_KEY')).toBeInTheDocument();
    expect(dock.getByText(/you can read it but not answer/)).toBeInTheDocument();
    expect(dock.queryByLabelText('Secret value')).toBeNull();
    expect(dock.queryByRole('button', { name: 'Enter secret' })).toBeNull();
    expect(dock.queryByRole('button', { name: 'Expand questions' })).toBeNull();
    // The question's panel comes before the read-only request in the dock's order.
    const panel = dock.getByRole('radio', { name: /^Staging/ });
    expect(panel.compareDocumentPosition(dock.getByText('OPENAI_API_KEY')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('[E3][W4] one they may provide still comes first, before the question, even after a read-only one', async () => {
    const { dock } = dockFor('ana', [secret({ id: 'k0', name: 'STRIPE_KEY', route: { escalation: 'keys', step: 0, notified: ['bo'], eligible: ['bo'] } }), forAna()]);
    expect(await dock.findByLabelText('Secret value')).toBeInTheDocument();
    expect(dock.getByText('OPENAI_API_KEY')).toBeInTheDocument();
    expect(dock.queryByRole('radio')).toBeNull();
    expect(dock.getByRole('button', { name: 'Expand questions' })).toBeInTheDocument();
  });

  it('[E3][U1] a blocking question arriving beside a read-only secret request takes focus, as with none', async () => {
    const { client, dock } = dockFor('cy', [forAna()], []);
    await dock.findByText('OPENAI_API_KEY');
    const message = screen.getByRole('textbox', { name: 'Message' });
    message.focus();
    act(() => client.emit('question.requested', { question: deployRecord() }));
    await waitFor(() => expect(dock.getByRole('radio', { name: /^Staging/ })).toHaveFocus());
  });

  it('[E3][W4] a value being typed stays when an older request starts waiting for them (secret.routed)', async () => {
    const older = secret({ id: 'k0', name: 'STRIPE_KEY', route: { escalation: 'keys', step: 0, notified: ['bo'], eligible: ['bo'] } });
    const { client, dock, queryClient } = dockFor('ana', [older, forAna()]);
    const field = await dock.findByLabelText('Secret value');
    expect(dock.getByText('OPENAI_API_KEY')).toBeInTheDocument();
    field.focus();
    await userEvent.keyboard('sk-typed');
    const route = { escalation: 'keys', step: 1, notified: ['bo', 'ana'], eligible: ['bo', 'ana'] };
    act(() => client.emit('secret.routed', { id: 'k0', sessionKey: 's1', route }));
    const stepped = () => queryClient.getQueryData<SecretRequestRecord[]>(secretRequestsKey)?.find((r) => r.id === 'k0')?.route?.step;
    await waitFor(() => expect(stepped()).toBe(1));
    expect(dock.getByLabelText('Secret value')).toHaveValue('sk-typed');
    expect(dock.getByLabelText('Secret value')).toHaveFocus();
  });
});
