// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stillClock } from '../../../../testing/still-clock.ts';
import type { RouteState } from '../../../../protocol/routing.ts';
import { dockCodeReady, QuestionDock } from '../../questions/index.tsx';
import { composer, deployRecord, fakeClient, resetStores, setup } from '../../../../testing/ui-questions.tsx';

const route = (over: Partial<RouteState> = {}): RouteState => ({ escalation: 'prod', step: 0, notified: ['ana', 'bo'], eligible: ['ana', 'bo'], ...over });
const routingRow = async () => within(await screen.findByRole('group', { name: 'Routing' }, { timeout: 20_000 }));
const ackedBy = (identity: string) => route({ ackedBy: { identity, atMs: Date.now(), untilMs: Date.now() + 1_800_000 } });

/** Ana's dock, its "I'm on it" answered by `ack` once the test says so. */
async function anasDock() {
  const client = fakeClient('ana');
  (client as { hello: unknown }).hello = { auth: { identity: 'ana', role: 'operator', scopes: ['operator.questions'] } };
  const rec = deployRecord({ route: route({ nextAtMs: Date.now() + 60_000 }) });
  const ack = { took: (_: { route: RouteState }) => {}, failed: (_: Error) => {} };
  client.request.mockImplementation((method) => {
    if (method === 'question.ack') return new Promise((resolve, reject) => Object.assign(ack, { took: resolve, failed: reject }));
    return Promise.reject(new Error(`unexpected ${method}`));
  });
  await act(async () => void setup([rec], client).render(<QuestionDock sessionKey="s1" composer={composer} />));
  const button = (await routingRow()).getByRole('button', { name: "I'm on it" });
  button.focus();
  fireEvent.click(button);
  await waitFor(() => expect(client.request).toHaveBeenCalledWith('question.ack', { id: rec.id }));
  return { client, rec, ack, button };
}

beforeAll(() => Promise.all([dockCodeReady, import('./route-row.tsx')]));
stillClock();
beforeEach(resetStores);
afterEach(() => {
  cleanup();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('"I\'m on it" and focus (E4)', () => {
  it('[E4] a keyboard user\'s "I\'m on it" keeps focus while it is sent, then hands it to "ana is on it", never to the page', async () => {
    const { ack, button } = await anasDock();
    expect(button).toHaveFocus();
    await act(async () => ack.took({ route: ackedBy('ana') }));
    expect(await screen.findByText('ana is on it')).toHaveFocus();
  });

  it('[E4] a person who moved on while it was sent keeps their place when it takes', async () => {
    const { ack } = await anasDock();
    const elsewhere = document.body.appendChild(document.createElement('button'));
    elsewhere.focus();
    await act(async () => ack.took({ route: ackedBy('ana') }));
    expect(await screen.findByText('ana is on it')).toBeInTheDocument();
    expect(elsewhere).toHaveFocus();
  });

  it('[E4] after a failed acknowledgement, someone else\'s "I\'m on it" does not pull focus to its words', async () => {
    const { client, rec, ack, button } = await anasDock();
    await act(async () => ack.failed(new Error('gateway down')));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not acknowledged: gateway down');
    expect(button).toHaveFocus();
    act(() => client.emit('question.routed', { id: rec.id, route: ackedBy('bo') }));
    expect(await screen.findByText('bo is on it')).not.toHaveFocus();
  });

  it('[E4] while it is sent, the button reads busy as a disabled one does', async () => {
    const style = document.createElement('style');
    style.textContent = readFileSync('src/ui/app/styles/base.css', 'utf8');
    document.head.append(style);
    const { button } = await anasDock();
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(getComputedStyle(button).opacity).toBe('0.55');
  });
});
