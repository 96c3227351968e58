// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SecretRequestRecord } from '../../../../protocol/index.ts';
import type { RouteState } from '../../../../protocol/routing.ts';
import { dockCodeReady, QuestionDock } from '../index.tsx';
import { secretRequestsKey } from '../api/get-secret-requests.ts';
import { composer, deployRecord, fakeClient, personClient as person, resetStores, secretRecord, setup } from '../../../../testing/ui-questions.tsx';
import { stillClock } from '../../../../testing/still-clock.ts';

const VALUE = 'sk-proj-4fQ9xL2mR8tZ1vB7nK3cH6jW0pY5sD2aE9uG';

function renderWithSecret(records = [secretRecord()], questions = [] as ReturnType<typeof deployRecord>[]) {
  const s = setup(questions);
  s.queryClient.setQueryData(secretRequestsKey, records);
  s.render(<QuestionDock sessionKey="s1" composer={composer} />);
  return s;
}

// The app connects only once the dock's chunks (its panels and slim bars) are in; so do these tests.
beforeAll(() => dockCodeReady);
beforeEach(resetStores);
afterEach(cleanup);

describe('SecretPrompt', () => {
  it('[W4] docks a masked "Secret value" field with Show/Hide, and sends the value once with secret.provide', async () => {
    const user = userEvent.setup();
    const { client } = renderWithSecret();
    const dock = screen.getByRole('region', { name: 'Questions' });
    // The secret prompt's code arrives as a lazy chunk: wait for it as a person would.
    expect(await within(dock).findByText('OPENAI_API_KEY')).toBeInTheDocument();
    const field = within(dock).getByLabelText('Secret value');
    expect(field).toHaveAttribute('type', 'password');
    await user.type(field, VALUE);
    await user.click(within(dock).getByRole('button', { name: 'Show' }));
    expect(field).toHaveAttribute('type', 'text');
    expect(within(dock).getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(dock).getByRole('button', { name: 'Hide' }));
    expect(field).toHaveAttribute('type', 'password');
    expect(document.body.textContent).not.toContain(VALUE);
    await user.click(within(dock).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(client.request).toHaveBeenCalledWith('secret.provide', { id: 'k1', value: VALUE }));
    // Gone from the dock, from every attribute and from storage.
    await waitFor(() => expect(screen.queryByLabelText('Secret value')).toBeNull());
    expect(document.documentElement.outerHTML).not.toContain(VALUE);
    expect(JSON.stringify({ ...localStorage })).not.toContain(VALUE);
    expect(JSON.stringify({ ...sessionStorage })).not.toContain(VALUE);
  });

  it('[W4] Skip sends skip and nothing else; an empty Submit sends nothing', async () => {
    const user = userEvent.setup();
    const { client } = renderWithSecret();
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Type the value, or Skip.');
    expect(client.request.mock.calls.filter(([m]) => m === 'secret.provide')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(client.request).toHaveBeenCalledWith('secret.provide', { id: 'k1', skip: true }));
  });

  it('[W4] a secret.resolved event takes the prompt away; secret.requested brings one in', async () => {
    const { client } = renderWithSecret([]);
    expect(screen.queryByLabelText('Secret value')).toBeNull();
    act(() => client.emit('secret.requested', { request: secretRecord({ id: 'k2' }) }));
    expect(await screen.findByLabelText('Secret value')).toBeInTheDocument();
    act(() => client.emit('secret.resolved', { id: 'k2', sessionKey: 's1', name: 'OPENAI_API_KEY', status: 'expired' }));
    await waitFor(() => expect(screen.queryByLabelText('Secret value')).toBeNull());
  });

  it('[W4][U12] a secret request and a question pending together: the secret first, the question behind its bar; one Submit, one Skip', async () => {
    const user = userEvent.setup();
    renderWithSecret([secretRecord()], [deployRecord()]);
    const dock = screen.getByRole('region', { name: 'Questions' });
    expect(await within(dock).findByLabelText('Secret value')).toBeInTheDocument();
    expect(within(dock).getAllByRole('button', { name: 'Submit' })).toHaveLength(1);
    expect(within(dock).getAllByRole('button', { name: 'Skip' })).toHaveLength(1);
    expect(within(dock).queryByRole('radio')).toBeNull();
    // Expand questions turns it round: the question, and the secret behind a bar of its own; and back.
    await user.click(within(dock).getByRole('button', { name: 'Expand questions' }));
    expect(await within(dock).findByRole('radio', { name: /^Staging/ })).toBeInTheDocument();
    expect(within(dock).queryByLabelText('Secret value')).toBeNull();
    expect(within(dock).getAllByRole('button', { name: 'Skip' })).toHaveLength(1);
    await user.click(within(dock).getByRole('button', { name: 'Enter secret' }));
    expect(await within(dock).findByLabelText('Secret value')).toBeInTheDocument();
    // Its field has focus: what is typed next goes there, never into the composer.
    await waitFor(() => expect(within(dock).getByLabelText('Secret value')).toHaveFocus());
    expect(within(dock).queryByRole('radio')).toBeNull();
    await user.click(within(dock).getByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(within(dock).queryByLabelText('Secret value')).toBeNull());
    expect(await within(dock).findByRole('radio', { name: /^Staging/ })).toBeInTheDocument();
    expect(within(dock).getAllByRole('button', { name: 'Skip' })).toHaveLength(1);
  });

  it('[W4] after Expand then Collapse, a new blocking question does not take the place of a half-typed secret', async () => {
    const user = userEvent.setup();
    const { client } = renderWithSecret([secretRecord()], [deployRecord()]);
    const dock = screen.getByRole('region', { name: 'Questions' });
    await user.click(within(dock).getByRole('button', { name: 'Expand questions' }));
    await within(dock).findByRole('radio', { name: /^Staging/ });
    await user.click(within(dock).getByRole('button', { name: 'Collapse questions' }));
    const field = await within(dock).findByLabelText('Secret value');
    await user.type(field, 'sk-half');
    act(() => client.emit('question.requested', { question: deployRecord({ id: 'q-next', createdAtMs: Date.now() + 5 }) }));
    await waitFor(() => expect(within(dock).getByRole('button', { name: 'Expand questions' })).toBeInTheDocument());
    expect(within(dock).getByLabelText('Secret value')).toHaveValue('sk-half');
    expect(within(dock).queryByRole('radio')).toBeNull();
  });

  it('[W4][U15] a sessionless secret request docks in the Inbox, not in a session', () => {
    renderWithSecret([secretRecord({ sessionKey: undefined })]);
    expect(screen.queryByLabelText('Secret value')).toBeNull();
  });

  it('[W4] another session\'s secret request does not dock here', () => {
    renderWithSecret([secretRecord({ sessionKey: 'other' })]);
    expect(screen.queryByLabelText('Secret value')).toBeNull();
  });

  it('[W4] has no serious axe violations', async () => {
    renderWithSecret();
    const results = await axe.run(document.body, { rules: { region: { enabled: false } } });
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });
});

describe('credential warning', () => {
  const single = () =>
    deployRecord({ questions: [{ id: 'env', header: 'Environment', question: 'Where should I deploy?', options: [{ label: 'Staging' }, { label: 'Production' }] }] });

  it('[W3] Other text that looks like a credential waits for confirmation in an alert dialog; Cancel sends nothing', async () => {
    const user = userEvent.setup();
    const s = setup([single()]);
    const { client } = s;
    s.render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.type(screen.getByRole('textbox', { name: 'Other' }), 'ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const alert = await screen.findByRole('alertdialog', {}, { timeout: 15_000 });
    expect(alert).toHaveTextContent('GitHub token');
    expect(alert).not.toHaveTextContent('ghp_1a2B');
    expect(client.request.mock.calls.filter(([m]) => m === 'question.resolve')).toEqual([]);
    await user.click(within(alert).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(client.request.mock.calls.filter(([m]) => m === 'question.resolve')).toEqual([]);
    // The text is kept, and confirming sends it.
    expect(screen.getByRole('textbox', { name: 'Other' })).toHaveValue('ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.click(within(await screen.findByRole('alertdialog', {}, { timeout: 15_000 })).getByRole('button', { name: 'Send anyway' }));
    await waitFor(() =>
      expect(client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ id: 'q-deploy', answers: { env: ['ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R'] } })),
    );
  });

  it('[W3] ordinary Other text is sent without a warning', async () => {
    const user = userEvent.setup();
    const s = setup([single()]);
    s.render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.type(screen.getByRole('textbox', { name: 'Other' }), 'after lunch, see 3f786850e387550fdab836ed7e6dc881de23001b');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(s.client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ id: 'q-deploy' })));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('a routed secret request (E3, E9, E11 for K1)', () => {
  stillClock();
  const route = (over: Partial<RouteState> = {}): RouteState => ({ escalation: 'ops', step: 0, notified: ['ana'], eligible: ['ana'], ...over });
  const routed = (over: Partial<RouteState> = {}) => secretRecord({ route: route({ nextAtMs: Date.now() + 252_000, ...over }) });
  const dockFor = async (client: ReturnType<typeof fakeClient>, record: SecretRequestRecord) => {
    const s = setup([], client);
    s.queryClient.setQueryData(secretRequestsKey, [record]);
    s.render(<QuestionDock sessionKey="s1" composer={composer} />);
    const dock = within(screen.getByRole('region', { name: 'Questions' }));
    await dock.findByText('OPENAI_API_KEY');
    return { dock, row: () => within(dock.getByRole('group', { name: 'Routing' })) };
  };

  it('[E3][K1] someone it does not wait for reads who it waits for and when it moves on, with no value field, Submit or Skip', async () => {
    const { dock, row } = await dockFor(person('cy'), routed({ notified: ['ana', 'bo'], eligible: ['ana', 'bo'] }));
    expect(row().getByText(/^For ana, bo · next step/)).toHaveTextContent(/^For ana, bo · next step in 4:12$/);
    expect(row().getByText('Waiting for ana, bo: you can read it but not answer')).toBeInTheDocument();
    expect(dock.getByText('To call the API for the summary.')).toBeInTheDocument();
    expect(dock.queryByLabelText('Secret value')).toBeNull();
    for (const name of ['Submit', 'Skip', 'Show']) expect(dock.queryByRole('button', { name })).toBeNull();
  });

  it('[E9][K1] the route\'s display names name who it waits for, as the question dock does ("For Ana, Bo"); anyone unnamed by id', async () => {
    const { row } = await dockFor(person('cy'), routed({ notified: ['ana', 'bo', 'dee'], eligible: ['ana', 'bo', 'dee'], names: { ana: 'Ana', bo: 'Bo' } }));
    expect(row().getByText(/^For Ana, Bo, dee · next step/)).toBeInTheDocument();
    expect(row().getByText('Waiting for Ana, Bo, dee: you can read it but not answer')).toBeInTheDocument();
  });

  it('[E11][K1] a secret.routed event whose step notifies them brings the field, Submit and Skip', async () => {
    const client = person('cy');
    const { dock, row } = await dockFor(client, routed());
    expect(dock.queryByLabelText('Secret value')).toBeNull();
    const next = route({ step: 1, notified: ['ana', 'cy'], eligible: ['ana', 'cy'] });
    act(() => client.emit('secret.routed', { id: 'k1', sessionKey: 's1', route: next, notify: ['cy'] }));
    expect(await dock.findByLabelText('Secret value')).toHaveAttribute('type', 'password');
    expect(dock.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
    expect(dock.getByRole('button', { name: 'Skip' })).toBeInTheDocument();
    expect(row().getByText('For ana, cy')).toBeInTheDocument();
    expect(row().queryByText(/you can read it but not answer/)).toBeNull();
  });

  it('[E9][K1] in routing.status\'s words, as a question\'s row reads ("For Ana · to ops in 4:12"); a secret.routed brings the next step\'s', async () => {
    const client = person('cy');
    const listed = { id: 'k1', name: 'OPENAI_API_KEY', sessionKey: 's1', step: 0, nextAtMs: Date.now() + 252_000 };
    let words: object = { ...listed, waitsFor: ['Ana'], next: ['ops'] };
    const plain = client.request.getMockImplementation()!;
    client.request.mockImplementation(async (method, params) => (method === 'routing.status' ? { schedules: [], questions: [], secrets: [words] } : plain(method, params)));
    const { row } = await dockFor(client, routed({ names: { ana: 'Ana' } }));
    expect(await row().findByText(/^For Ana · to ops/)).toHaveTextContent(/^For Ana · to ops in 4:12$/);
    words = { ...listed, step: 1, nextAtMs: Date.now() + 600_000, waitsFor: ['ops'] };
    const next = route({ step: 1, notified: ['ana', 'bo', 'cy'], eligible: ['ana', 'bo', 'cy'], nextAtMs: Date.now() + 600_000 });
    act(() => client.emit('secret.routed', { id: 'k1', sessionKey: 's1', route: next, notify: ['bo', 'cy'] }));
    expect(await row().findByText(/^For ops/)).toHaveTextContent(/^For ops · next step in 10:00$/);
  });

  it('[E3][K1] an admin it does not name still gets the field, under who it waits for', async () => {
    const { dock, row } = await dockFor(fakeClient('root'), routed());
    expect(row().getByText(/^For ana · next step/)).toBeInTheDocument();
    expect(row().queryByText(/you can read it but not answer/)).toBeNull();
    expect(dock.getByLabelText('Secret value')).toHaveAttribute('type', 'password');
    expect(dock.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
    expect(dock.getByRole('button', { name: 'Skip' })).toBeInTheDocument();
  });

  it('[E7][K1] provided elsewhere, it reads "Answered by Ana · TUI" with no value field, beside a question still open, until dismissed', async () => {
    const client = person('cy');
    const s = setup([deployRecord()], client);
    s.queryClient.setQueryData(secretRequestsKey, [routed()]);
    s.render(<QuestionDock sessionKey="s1" composer={composer} />);
    const dock = within(screen.getByRole('region', { name: 'Questions' }));
    await dock.findByText('OPENAI_API_KEY');
    const by = { identity: 'ana', name: 'Ana', surface: 'tui', atMs: Date.now() };
    act(() => client.emit('secret.resolved', { id: 'k1', sessionKey: 's1', name: 'OPENAI_API_KEY', status: 'stored', resolvedBy: by }));
    expect(await dock.findByText('Answered by Ana · TUI')).toBeInTheDocument();
    expect(dock.queryByLabelText('Secret value')).toBeNull();
    expect(dock.queryByRole('button', { name: 'Show' })).toBeNull();
    expect(await dock.findByRole('radio', { name: /^Staging/ })).toBeInTheDocument();
    await userEvent.setup().click(dock.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText('OPENAI_API_KEY')).toBeNull());
  });

  it('[E7][K1] a skip elsewhere reads "Skipped by …"; an unrouted request, or one that expired, just leaves', async () => {
    const client = fakeClient('root');
    const s = setup([], client);
    s.queryClient.setQueryData(secretRequestsKey, [routed(), secretRecord({ id: 'k2', createdAtMs: Date.now() + 1 })]);
    s.render(<QuestionDock sessionKey="s1" composer={composer} />);
    const by = { identity: 'bo', surface: 'channel:slack', atMs: Date.now() };
    act(() => client.emit('secret.resolved', { id: 'k2', name: 'OPENAI_API_KEY', status: 'stored', resolvedBy: by }));
    act(() => client.emit('secret.resolved', { id: 'k1', name: 'OPENAI_API_KEY', status: 'skipped', resolvedBy: by }));
    expect(await screen.findByText('Skipped by bo · Slack')).toBeInTheDocument();
    expect(screen.getAllByText('OPENAI_API_KEY')).toHaveLength(1);
    act(() => client.emit('secret.requested', { request: secretRecord({ id: 'k3', createdAtMs: Date.now() + 2, route: route() }) }));
    act(() => client.emit('secret.resolved', { id: 'k3', name: 'OPENAI_API_KEY', status: 'expired' }));
    expect(screen.getByText('Skipped by bo · Slack')).toBeInTheDocument();
    expect(screen.getAllByText('OPENAI_API_KEY')).toHaveLength(1);
  });
});
