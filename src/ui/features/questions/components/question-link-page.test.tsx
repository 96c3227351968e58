// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AskdockError, type QuestionRecord } from '../../../../protocol/index.ts';
import { deployRecord, fakeClient, resetStores, setup } from '../../../../testing/ui-questions.tsx';
import { OFFER_AGENT, OFFER_PROJECT, OFFER_SESSION } from '../../../../answers/kinds/approval-offers.ts';
import QuestionLinkPage from './question-link-page.tsx';

const linkRecord = (over: Partial<QuestionRecord> = {}) => deployRecord({ sessionKey: undefined, ...over });
const group = (name: string) => screen.getByRole('group', { name });

/** A client whose question.get answers with `record` (or throws it), the rest as the fake gateway does. */
function clientWith(get: () => QuestionRecord | Error) {
  const client = fakeClient();
  const base = client.request.getMockImplementation()!;
  client.request.mockImplementation(async (method, params) => {
    if (method !== 'question.get') return base(method, params);
    const answer = get();
    if (answer instanceof Error) throw answer;
    return { question: answer };
  });
  return client;
}

beforeEach(resetStores);
afterEach(cleanup);

describe('QuestionLinkPage', () => {
  it('[U3][U11] the dock\'s form: digits pick, Ctrl+Enter submits through the command registry, surface "link"', async () => {
    const user = userEvent.setup();
    const client = clientWith(() => linkRecord());
    setup([], client).render(<QuestionLinkPage id="q-deploy" />);
    const env = await screen.findByRole('group', { name: 'Environment' });
    await user.click(within(env).getByRole('radio', { name: 'Staging (Recommended)' }));
    await user.keyboard('2');
    expect(within(env).getByRole('radio', { name: 'Production' })).toBeChecked();
    const other = within(group('Notify')).getByRole('textbox', { name: 'Other' });
    await user.type(other, 'ops');
    // A composing Ctrl+Enter (keyCode 229) is no submit.
    other.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, keyCode: 229, isComposing: true, bubbles: true }));
    expect(client.request.mock.calls.some(([method]) => method === 'question.resolve')).toBe(false);
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() =>
      expect(client.request).toHaveBeenCalledWith('question.resolve', {
        id: 'q-deploy',
        answers: { env: ['Production'], notify: ['ops'] },
        resolutionId: expect.any(String),
        surface: 'link',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Answer sent' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Question answered' })).toHaveTextContent('ops');
  });

  it('[U4][U5] a missing answer is named under its question; Esc collapses nothing here', async () => {
    const user = userEvent.setup();
    setup([], clientWith(() => linkRecord())).render(<QuestionLinkPage id="q-deploy" />);
    await user.click(await screen.findByRole('radio', { name: 'Production' }));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(within(group('Notify')).getByRole('alert')).toHaveTextContent('Choose at least one option or type an answer in Other.');
    expect(within(group('Environment')).queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Collapse questions' })).toBeNull();
  });

  it('[U11] a failed load says so and Retry reads it again; a question that is gone stays gone', async () => {
    const user = userEvent.setup();
    let fail = true;
    const client = clientWith(() => (fail ? new AskdockError('UNAVAILABLE', 'the gateway is restarting') : linkRecord()));
    setup([], client).render(<QuestionLinkPage id="q-deploy" />);
    expect(await screen.findByRole('heading', { name: 'Could not load the question' })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('group', { name: 'Environment' })).toBeInTheDocument();
    cleanup();
    setup([], clientWith(() => new AskdockError('QUESTION_NOT_FOUND', 'no such question'))).render(<QuestionLinkPage id="q-gone" />);
    expect(await screen.findByRole('heading', { name: 'Question no longer available' })).toBeInTheDocument();
  });

  it('[U7][Q8] the record lives in the one questions cache: its event ends the page in place', async () => {
    const { client, render, queryClient } = setup([], clientWith(() => linkRecord()));
    render(<QuestionLinkPage id="q-deploy" />);
    await screen.findByRole('group', { name: 'Environment' });
    expect(queryClient.getQueryData<QuestionRecord[]>(['questions'])?.map((r) => r.id)).toEqual(['q-deploy']);
    client.emit('question.resolved', { id: 'q-deploy', status: 'cancelled', reason: 'run-ended' });
    expect(await screen.findByRole('heading', { name: 'Question no longer available' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Question cancelled' })).toHaveTextContent('Where should I deploy?');
  });

  it('[X2][U3] shows a detail whole, and Cmd+Enter (metaKey) submits like Ctrl+Enter', async () => {
    const user = userEvent.setup();
    const detail = Array.from({ length: 40 }, (_, i) => `+line ${i + 1}`).join('\n');
    const approval = linkRecord({
      id: 'q-approve',
      questions: [{ id: 'approve', header: 'Bash', question: 'Allow Bash make?', options: [{ label: 'Allow' }, { label: 'Deny' }], detail }],
    });
    const client = clientWith(() => approval);
    setup([], client).render(<QuestionLinkPage id="q-approve" />);
    const block = await screen.findByRole('group', { name: 'Detail' });
    expect(block.textContent).toBe(detail);
    expect(block.closest('[data-whole]')).not.toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Allow' }));
    block.focus();
    await user.keyboard('2');
    expect(screen.getByRole('radio', { name: 'Deny' })).toBeChecked();
    await user.keyboard('{Meta>}{Enter}{/Meta}');
    await waitFor(() =>
      expect(client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ id: 'q-approve', answers: { approve: ['Deny'] }, surface: 'link' })),
    );
  });

  it('[G5][A3] a guest opening an approval\'s link is offered Allow, Deny and the session offer only', async () => {
    const approval = linkRecord({
      id: 'q-approval',
      questions: [{ id: 'approval', kind: 'approval', header: 'Bash', question: 'Allow Bash(ls)?', options: ['Allow', 'Deny', OFFER_SESSION, OFFER_PROJECT, OFFER_AGENT].map((label) => ({ label })) }],
    });
    const client = clientWith(() => approval);
    (client as { hello: unknown }).hello = { auth: { identity: 'guest', role: 'operator', scopes: ['operator.sessions.write'] } };
    setup([], client).render(<QuestionLinkPage id="q-approval" />);
    const radios = within(await screen.findByRole('group', { name: 'Bash' })).getAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('value'))).toEqual(['Allow', 'Deny', OFFER_SESSION]);
  });

  it('[E3][E4][E9] a routed question\'s own page says who it waits for: "I\'m on it" for them, read-only words and locked choices for anyone else', async () => {
    const routed = linkRecord({ route: { escalation: 'prod', step: 0, notified: ['ana'], eligible: ['ana'] } });
    const as = (identity: string) => {
      const client = clientWith(() => routed);
      (client as { hello: unknown }).hello = { auth: { identity, role: 'operator', scopes: ['operator.questions'] } };
      return client;
    };
    setup([], as('ana')).render(<QuestionLinkPage id="q-deploy" />);
    const row = within(await screen.findByRole('group', { name: 'Routing' }, { timeout: 20_000 }));
    expect(row.getByText(/^For ana/)).toBeInTheDocument();
    expect(row.getByRole('button', { name: "I'm on it" })).toBeInTheDocument();
    cleanup();
    resetStores();
    const user = userEvent.setup();
    setup([], as('cy')).render(<QuestionLinkPage id="q-deploy" />);
    const readOnly = within(await screen.findByRole('group', { name: 'Routing' }, { timeout: 20_000 }));
    expect(readOnly.getByText('Waiting for ana: you can read it but not answer')).toBeInTheDocument();
    expect(readOnly.queryByRole('button', { name: "I'm on it" })).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    expect(screen.getByRole('radio', { name: 'Production' })).not.toBeChecked();
    // Nor by number key, and there is nothing to send: Submit and Skip are for those it waits for (U12).
    await user.keyboard('2');
    expect(screen.getByRole('radio', { name: 'Production' })).not.toBeChecked();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Skip' })).toBeNull();
  });

  it('[E7] a routed question someone else answered says who, and where: "Answered by Dana · TUI"', async () => {
    const answered = linkRecord({
      status: 'answered',
      answers: { env: ['Production'], notify: ['Email'] },
      resolvedBy: { identity: 'dana', name: 'Dana', surface: 'tui', atMs: 2 },
      route: { escalation: 'prod', step: 0, notified: ['ana', 'dana'], eligible: ['ana', 'dana'] },
    });
    setup([], clientWith(() => answered)).render(<QuestionLinkPage id="q-deploy" />);
    const summary = await screen.findByRole('region', { name: 'Question answered elsewhere' });
    expect(summary).toHaveTextContent('Answered by Dana · TUI');
  });
});
