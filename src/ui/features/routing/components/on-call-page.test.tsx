// @vitest-environment jsdom
import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stillClock } from '../../../../testing/still-clock.ts';
import { deployRecord, fakeClient, resetStores, setup } from '../../../../testing/ui-questions.tsx';
import OnCallPage from './on-call-page.tsx';
import { OnCallLink } from './on-call-link.tsx';

const NOW = stillClock();
const STATUS = {
  schedules: [{ name: 'primary', now: 'ana', next: 'bo', nextAtMs: NOW + 3_600_000 }],
  questions: [{ id: 'q-deploy', step: 0, nextAtMs: NOW + 252_500 }],
};

function routingClient(status: unknown) {
  const client = fakeClient('ana');
  client.request.mockImplementation(async (method) => {
    if (method === 'routing.status') return status;
    throw new Error(`unexpected ${method}`);
  });
  return client;
}

beforeEach(resetStores);
afterEach(cleanup);

describe('the On call page (E9, E12)', () => {
  it('[E9] lists each schedule\'s person now and next, and each open routed question with its step and timer', async () => {
    setup([deployRecord({ id: 'q-deploy' })], routingClient(STATUS)).render(<OnCallPage />);
    const schedules = within(await screen.findByRole('region', { name: 'Schedules' }));
    const row = within(schedules.getByRole('row', { name: /primary/ }));
    expect(row.getByRole('cell', { name: 'ana' })).toBeInTheDocument();
    expect(row.getAllByRole('cell')[1]).toHaveTextContent(/^bo from /);
    const questions = within(screen.getByRole('region', { name: 'Open routed requests' }));
    expect(questions.getByRole('link', { name: deployRecord().questions[0].header })).toHaveAttribute('href', '/q/q-deploy');
    expect(questions.getByRole('timer')).toHaveTextContent(/^in 4:1[23]$/);
  });

  it('[E9][U12] each table is named by its heading, so a screen reader lands on "Schedules" and "Open routed requests" by name', async () => {
    setup([deployRecord({ id: 'q-deploy' })], routingClient(STATUS)).render(<OnCallPage />);
    expect(await screen.findByRole('table', { name: 'Schedules' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Open routed requests' })).toBeInTheDocument();
  });

  it('[E9] names each person on call and whoever is on a question by display name, with the identity id beside it', async () => {
    const named = {
      schedules: [{ ...STATUS.schedules[0], nowName: 'Ana Lima', nextName: 'Bo Berg' }],
      questions: [{ ...STATUS.questions[0], ackedBy: { identity: 'cy', name: 'Cy Chen', atMs: Date.now(), untilMs: Date.now() + 1_800_000 } }],
    };
    setup([deployRecord({ id: 'q-deploy' })], routingClient(named)).render(<OnCallPage />);
    const schedules = within(await screen.findByRole('region', { name: 'Schedules' }));
    const [nowCell, nextCell] = within(schedules.getByRole('row', { name: /primary/ })).getAllByRole('cell');
    expect(nowCell).toHaveTextContent(/^Ana Lima \(ana\)$/);
    expect(nextCell).toHaveTextContent(/^Bo Berg \(bo\) from /);
    const questions = within(screen.getByRole('region', { name: 'Open routed requests' }));
    expect(questions.getByRole('row', { name: /Cy Chen is on it/ })).toBeInTheDocument();
  });

  it('[E9] says when the next person takes over as a time ahead, not as "just now"', async () => {
    const tomorrowNine = new Date();
    tomorrowNine.setDate(tomorrowNine.getDate() + 1);
    tomorrowNine.setHours(9, 0, 0, 0);
    const status = { ...STATUS, schedules: [{ ...STATUS.schedules[0], nextName: 'Bo Berg', nextAtMs: tomorrowNine.getTime() }] };
    setup([deployRecord({ id: 'q-deploy' })], routingClient(status)).render(<OnCallPage />);
    const schedules = within(await screen.findByRole('region', { name: 'Schedules' }));
    const nextCell = within(schedules.getByRole('row', { name: /primary/ })).getAllByRole('cell')[1];
    expect(nextCell).toHaveTextContent(/^Bo Berg \(bo\) from tomorrow 09:00$/);
  });

  it('[E9][K1] lists each open routed secret request beside the questions, by the name asked for, linking to where it docks, with its step and timer', async () => {
    const secrets = [
      { id: 'k1', name: 'STRIPE_KEY', sessionKey: 's1', step: 1, nextAtMs: NOW + 252_500, waitsFor: ['ops'] },
      { id: 'k2', name: 'GH_TOKEN', step: 0, waitsFor: ['Ana'] },
    ];
    setup([deployRecord({ id: 'q-deploy' })], routingClient({ ...STATUS, secrets })).render(<OnCallPage />);
    const open = within(await screen.findByRole('region', { name: 'Open routed requests' }));
    expect(open.getByRole('link', { name: deployRecord().questions[0].header })).toBeInTheDocument();
    const stripe = within(open.getByRole('row', { name: /STRIPE_KEY/ }));
    expect(stripe.getAllByRole('cell').map((c) => c.textContent)).toEqual(['Secret STRIPE_KEY', '2', expect.stringMatching(/^in 4:1[23]$/)]);
    expect(stripe.getByRole('link', { name: 'STRIPE_KEY' })).toHaveAttribute('href', '/s/s1');
    // A sessionless request docks in the Inbox (U15); with no step after this one, it says so.
    const gh = within(open.getByRole('row', { name: /GH_TOKEN/ }));
    expect(gh.getByRole('link', { name: 'GH_TOKEN' })).toHaveAttribute('href', '/inbox');
    expect(gh.getAllByRole('cell').map((c) => c.textContent)).toEqual(['Secret GH_TOKEN', '1', 'last step']);
  });

  it('[E9][K1] the section listing routed questions and secret requests names both: "Open routed requests", its first column "Request"', async () => {
    const secrets = [{ id: 'k1', name: 'STRIPE_KEY', sessionKey: 's1', step: 0 }];
    setup([deployRecord({ id: 'q-deploy' })], routingClient({ ...STATUS, secrets })).render(<OnCallPage />);
    const open = within(await screen.findByRole('region', { name: 'Open routed requests' }));
    expect(open.getByRole('heading', { level: 2 })).toHaveTextContent(/^Open routed requests$/);
    expect(open.getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Request', 'Step', 'Next step']);
    expect(open.getByRole('row', { name: /STRIPE_KEY/ })).toHaveTextContent(/^Secret STRIPE_KEY/);
    expect(screen.queryByText(/Open routed questions/)).toBeNull();
  });

  it('[E9][K1] a secret request provided elsewhere leaves the page: secret.resolved asks routing.status again', async () => {
    const client = routingClient({ schedules: [], questions: [], secrets: [{ id: 'k1', name: 'STRIPE_KEY', sessionKey: 's1', step: 0 }] });
    setup([], client).render(<OnCallPage />);
    const open = within(await screen.findByRole('region', { name: 'Open routed requests' }));
    expect(open.getByRole('link', { name: 'STRIPE_KEY' })).toBeInTheDocument();
    client.request.mockImplementation(async () => ({ schedules: [], questions: [], secrets: [] }));
    act(() => client.emit('secret.resolved', { id: 'k1', sessionKey: 's1', name: 'STRIPE_KEY', status: 'stored' }));
    expect(await open.findByText('None waiting.')).toBeInTheDocument();
    expect(open.queryByRole('link', { name: 'STRIPE_KEY' })).toBeNull();
  });

  it('[E9][E7] a routed question answered elsewhere leaves the page: question.resolved asks routing.status again', async () => {
    const client = routingClient(STATUS);
    setup([deployRecord({ id: 'q-deploy' })], client).render(<OnCallPage />);
    const open = within(await screen.findByRole('region', { name: 'Open routed requests' }));
    expect(await open.findByRole('link', { name: deployRecord().questions[0].header })).toBeInTheDocument();
    client.request.mockImplementation(async () => ({ schedules: STATUS.schedules, questions: [] }));
    act(() => client.emit('question.resolved', { id: 'q-deploy', sessionKey: 's1', status: 'answered', answers: {} }));
    expect(await open.findByText('None waiting.')).toBeInTheDocument();
  });

  it('[E9] the entry shows where the gateway routes, and not where routing.status has nothing', async () => {
    setup([], routingClient(STATUS)).render(<OnCallLink active={false} />);
    expect(await screen.findByRole('link', { name: 'On call' })).toHaveAttribute('href', '/on-call');
    cleanup();
    // K1: a routed secret request alone is routing too.
    setup([], routingClient({ schedules: [], questions: [], secrets: [{ id: 'k1', name: 'STRIPE_KEY', step: 0 }] })).render(<OnCallLink active={false} />);
    expect(await screen.findByRole('link', { name: 'On call' })).toBeInTheDocument();
    cleanup();
    const client = routingClient({ schedules: [], questions: [] });
    setup([], client).render(<OnCallLink active={false} />);
    await expect.poll(() => client.request.mock.calls.some(([m]) => m === 'routing.status')).toBe(true);
    expect(screen.queryByRole('link', { name: 'On call' })).toBeNull();
  });
});
