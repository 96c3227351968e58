// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { stillClock } from '../../../../testing/still-clock.ts';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import type { RouteState } from '../../../../protocol/routing.ts';
import { dockCodeReady, QuestionDock } from '../../questions/index.tsx';
import { composer, deployRecord, fakeClient, resetStores, setup } from '../../../../testing/ui-questions.tsx';
import { useDraftsStore } from '../../questions/stores/drafts.ts';

const route = (over: Partial<RouteState> = {}): RouteState => ({ escalation: 'prod', step: 0, notified: ['ana'], eligible: ['ana'], ...over });
const routingRow = async () => within(await screen.findByRole('group', { name: 'Routing' }, { timeout: 20_000 }));
const person = (identity: string) => {
  const client = fakeClient(identity);
  (client as { hello: unknown }).hello = { auth: { identity, role: 'operator', scopes: ['operator.questions'] } };
  return client;
};

beforeAll(() => Promise.all([dockCodeReady, import('./route-row.tsx')]));
stillClock();
beforeEach(resetStores);
afterEach(cleanup);

describe('the dock\'s routing row (E4, E5, E9)', () => {
  it('[E9] names who the question waits for and counts down to the next step', async () => {
    const rec = deployRecord({ route: route({ nextAtMs: Date.now() + 252_500 }) });
    await act(async () => void setup([rec], person('ana')).render(<QuestionDock sessionKey="s1" composer={composer} />));
    const row = await routingRow();
    expect(row.getByText(/For ana/)).toBeInTheDocument();
    expect(row.getByRole('timer')).toHaveTextContent(/^in 4:1[23]$/);
  });

  it('[E9] names them as the gateway words it: "For Ana · to ops in 4:12", and a step the question expires before is "not reached before it expires"', async () => {
    const client = person('ana');
    const rec = deployRecord({ route: route({ nextAtMs: Date.now() + 252_500 }) });
    const words = { id: rec.id, step: 0, nextAtMs: rec.route?.nextAtMs, waitsFor: ['Ana'], next: ['ops'], unreached: ['Dana'] };
    client.request.mockImplementation(async (method) => {
      if (method === 'routing.status') return { schedules: [], questions: [words] };
      throw new Error(`unexpected ${method}`);
    });
    await act(async () => void setup([rec], client).render(<QuestionDock sessionKey="s1" composer={composer} />));
    const row = await routingRow();
    expect(await row.findByText(/^For Ana · to ops/)).toHaveTextContent(/^For Ana · to ops in 4:1[23] · Dana: not reached before it expires$/);
  });

  it('[E9] a next step the question expires before gets no countdown', async () => {
    const client = person('ana');
    const rec = deployRecord({ route: route({ nextAtMs: Date.now() + 252_500 }) });
    client.request.mockImplementation(async (method) => {
      if (method === 'routing.status') return { schedules: [], questions: [{ id: rec.id, step: 0, waitsFor: ['Ana'], unreached: ['ops'] }] };
      throw new Error(`unexpected ${method}`);
    });
    await act(async () => void setup([rec], client).render(<QuestionDock sessionKey="s1" composer={composer} />));
    const row = await routingRow();
    expect(await row.findByText(/^For Ana/)).toHaveTextContent(/^For Ana · ops: not reached before it expires$/);
    expect(row.queryByRole('timer')).toBeNull();
  });

  it('[E4] "I\'m on it" sends question.ack and the row then reads "ana is on it"', async () => {
    const client = person('ana');
    const rec = deployRecord({ route: route({ nextAtMs: Date.now() + 60_000 }) });
    client.request.mockImplementation(async (method) => {
      if (method === 'question.ack') return { route: route({ ackedBy: { identity: 'ana', atMs: Date.now(), untilMs: Date.now() + 1_800_000 } }) };
      throw new Error(`unexpected ${method}`);
    });
    await act(async () => void setup([rec], client).render(<QuestionDock sessionKey="s1" composer={composer} />));
    fireEvent.click((await routingRow()).getByRole('button', { name: "I'm on it" }));
    expect(await screen.findByText('ana is on it')).toBeInTheDocument();
    expect(client.request).toHaveBeenCalledWith('question.ack', { id: rec.id });
    expect((await routingRow()).queryByRole('button', { name: "I'm on it" })).toBeNull();
  });

  it('[E6] a question handed off to bo opens in his dock with the drafts ana typed', async () => {
    const handoffs = [{ from: 'ana', to: 'identity:bo', note: 'yours', atMs: 1, drafts: { env: ['Production'], notify: ['Slack', 'ops'] }, reached: ['bo'] }];
    const rec = deployRecord({ route: route({ notified: ['ana', 'bo'], eligible: ['ana', 'bo'], handoffs }) });
    await act(async () => void setup([rec], person('bo')).render(<QuestionDock sessionKey="s1" composer={composer} />));
    await routingRow();
    expect(await screen.findByRole('radio', { name: 'Production' })).toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('checkbox', { name: 'Slack' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Other' })).toHaveValue('ops');
  });

  it('[E6] the drafts are taken once per hand-off: a later route change (a held vote) does not bring them back', async () => {
    const handoffs = [{ from: 'ana', to: 'identity:bo', atMs: 1, drafts: { env: ['Production'] }, reached: ['bo'] }];
    const handed = route({ notified: ['ana', 'bo'], eligible: ['ana', 'bo'], handoffs, quorum: { needed: 2, approvals: [] } });
    const rec = deployRecord({ route: handed });
    const client = person('bo');
    await act(async () => void setup([rec], client).render(<QuestionDock sessionKey="s1" composer={composer} />));
    expect(await screen.findByRole('radio', { name: 'Production' })).toBeChecked();
    // What bo sent is no longer a draft here; the gateway holds it as his approval.
    act(() => useDraftsStore.setState({ drafts: {} }));
    act(() => client.emit('question.routed', { id: rec.id, route: { ...handed, quorum: { needed: 2, approvals: [{ identity: 'bo', surface: 'control-ui', atMs: 2 }] } } }));
    expect(await screen.findByText('1 of 2 approvals (bo)')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Production' })).not.toBeChecked();
  });

  it('[E5][E11] a question.routed event shows the quorum so far and who gave it', async () => {
    const rec = deployRecord({ route: route({ quorum: { needed: 2, approvals: [] } }) });
    const client = person('ana');
    await act(async () => void setup([rec], client).render(<QuestionDock sessionKey="s1" composer={composer} />));
    expect((await routingRow()).getByText('0 of 2 approvals')).toBeInTheDocument();
    act(() => client.emit('question.routed', { id: rec.id, route: route({ quorum: { needed: 2, approvals: [{ identity: 'ana', surface: 'control-ui', atMs: 1 }] } }) }));
    expect(await screen.findByText('1 of 2 approvals (ana)')).toBeInTheDocument();
  });

  it('[E5] their own Allow held short of the quorum keeps the question open: "1 of 2 approvals (Ana)", never "Answered by"', async () => {
    const client = person('ana');
    const rec = deployRecord({ questions: [deployRecord().questions[0]], route: route({ quorum: { needed: 2, approvals: [] } }) });
    const quorum = { needed: 2, approvals: [{ identity: 'ana', name: 'Ana', surface: 'control-ui', atMs: 1 }] };
    client.request.mockImplementation(async (method) => {
      if (method === 'question.resolve') return { status: 'pending', quorum };
      throw new Error(`unexpected ${method}`);
    });
    const world = setup([rec], client);
    await act(async () => void world.render(<QuestionDock sessionKey="s1" composer={composer} />));
    fireEvent.click(screen.getByRole('radio', { name: 'Staging (Recommended)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('1 of 2 approvals (Ana)')).toBeInTheDocument();
    expect(screen.getByText('Your approval is counted. Waiting for 1 more person.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Questions' })).toBeInTheDocument();
    expect(screen.queryByText(/Answered/)).toBeNull();
    const [held] = world.queryClient.getQueryData<QuestionRecord[]>(['questions']) ?? [];
    expect(held).toMatchObject({ status: 'pending', route: { quorum } });
    expect(held.resolvedBy).toBeUndefined();
  });

  it('[E5] the same person\'s second Allow says under the form it was already counted; their Deny after it still goes to the gateway', async () => {
    const client = person('ana');
    const approval = { id: 'approval', header: 'Bash', question: 'Run git push?', kind: 'approval' as const, options: [{ label: 'Allow' }, { label: 'Deny' }] };
    const rec = deployRecord({ questions: [approval], route: route({ quorum: { needed: 2, approvals: [] } }) });
    const quorum = { needed: 2, approvals: [{ identity: 'ana', name: 'Ana', surface: 'control-ui', atMs: 1 }] };
    client.request.mockImplementation(async (method, params) => {
      if (method !== 'question.resolve') throw new Error(`unexpected ${method}`);
      return (params as { answers: { approval: string[] } }).answers.approval[0] === 'Deny' ? { status: 'answered', answers: { approval: ['Deny'] } } : { status: 'pending', quorum };
    });
    await act(async () => void setup([rec], client).render(<QuestionDock sessionKey="s1" composer={composer} />));
    const allow = async () => {
      fireEvent.click(await screen.findByRole('radio', { name: 'Allow' }));
      fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    };
    await allow();
    expect(await screen.findByText('Your approval is counted. Waiting for 1 more person.')).toBeInTheDocument();
    expect(screen.queryByText(/already counted/)).toBeNull();
    await allow();
    expect(await screen.findByText('Your approval was already counted: 1 of 2 approvals (Ana). Waiting for 1 more person.')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('region', { name: 'Questions' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'Deny' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await vi.waitFor(() => expect(client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ answers: { approval: ['Deny'] } })));
    expect(screen.queryByText(/already counted/)).toBeNull();
  });

  it('[E3] someone it does not wait for reads it with who it waits for, without "I\'m on it"', async () => {
    const rec = deployRecord({ route: route({ notified: ['ana', 'bo'], eligible: ['ana', 'bo'] }) });
    await act(async () => void setup([rec], person('cy')).render(<QuestionDock sessionKey="s1" composer={composer} />));
    const row = await routingRow();
    expect(row.getByText('Waiting for ana, bo: you can read it but not answer')).toBeInTheDocument();
    expect(row.queryByRole('button', { name: "I'm on it" })).toBeNull();
    expect(row.queryByRole('button', { name: 'Hand off…' })).toBeNull();
  });

  it('[E3][U3] for them the number keys choose nothing, from the dock or the page, and there is no Submit or Skip', async () => {
    const rec = deployRecord({ route: route({ notified: ['ana'], eligible: ['ana'] }) });
    await act(async () => void setup([rec], person('cy')).render(<QuestionDock sessionKey="s1" composer={composer} />));
    await routingRow();
    const production = await screen.findByRole('radio', { name: 'Production' });
    fireEvent.keyDown(production, { key: '2' });
    fireEvent.keyDown(document.body, { key: '2' });
    expect(production).not.toBeChecked();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Skip' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Next' })).toBeInTheDocument();
  });
});
