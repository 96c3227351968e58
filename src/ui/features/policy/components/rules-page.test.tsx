// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayClient } from '../../../../client/client.ts';
import { AskdockError } from '../../../../protocol/index.ts';
import type { PolicyGetResult } from '../../../../protocol/policy.ts';
import { Listeners } from '../../../../lib/listeners.ts';
import { GatewayProvider } from '../../../lib/gateway.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { PolicyBanner } from './policy-banner.tsx';
import RulesPage from './rules-page.tsx';
import { RulesLink } from './rules-link.tsx';

afterEach(cleanup);

const NOW = Date.now();
const DAY = 86_400_000;
const POLICY: PolicyGetResult = {
  rules: [
    { id: 'no-rm', rule: 'Bash(rm -rf *)', decision: 'deny', layer: 'file', reason: 'never delete trees' },
    { id: 'npm-tests', rule: 'Bash(npm run test *)', decision: 'allow', layer: 'config' },
    { id: 'push', rule: 'Bash(git push *)', decision: 'ask', layer: 'config', reason: 'a person looks first' },
  ],
  grants: [
    { id: 'g1', rule: 'Bash(npm run lint *)', scope: 'session', sessionKey: 's_1', expiresAt: NOW + DAY, grantedBy: 'ana', questionId: 'q-lint', createdAtMs: NOW - 60_000 },
    { id: 'g2', rule: 'Edit(src/**)', scope: 'project', project: '/work/app', expiresAt: NOW + 7 * DAY, grantedBy: 'bo', questionId: 'q-edit' },
  ],
  unmatched: 'ask',
  loadedAtMs: NOW - 120_000,
};

type Handler = (payload: unknown) => void;

/** A gateway client whose `policy.*` requests answer from `answer`; events are emitted by hand. */
function fakeClient(answer: (method: string, params: Record<string, unknown>) => Promise<unknown>, scopes = ['operator.admin']) {
  const handlers = new Map<string, Listeners<[unknown]>>();
  const hellos = new Listeners<[unknown]>();
  const request = vi.fn(answer);
  const client = {
    request,
    hello: { auth: { identity: 'ana', role: 'operator', scopes }, features: { methods: ['policy.get', 'policy.grant.revoke'], events: [] } },
    state: { status: 'connected', attempt: 0 },
    on(event: string, handler: Handler) {
      if (!handlers.has(event)) handlers.set(event, new Listeners());
      return handlers.get(event)!.add(handler);
    },
    onHello: (handler: Handler) => hellos.add(handler),
    onState: () => () => {},
    emit: (event: string, payload: unknown) => act(() => handlers.get(event)?.emit(payload)),
    reconnect: (resumed: boolean) => act(() => hellos.emit({ ...client.hello, resumed })),
  };
  return client;
}

function show(client: ReturnType<typeof fakeClient>, ui: ReactNode) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <GatewayProvider client={client as unknown as GatewayClient}>{ui}</GatewayProvider>
    </QueryClientProvider>,
  );
}

/** A policy.get that answers `policy` until changed, and a revoke that waits for `release`. */
function gateway(policy: PolicyGetResult = POLICY) {
  const state = { policy, revoke: Promise.resolve() as Promise<unknown> };
  const client = fakeClient(async (method, params) => {
    if (method === 'policy.get') return structuredClone(state.policy);
    if (method === 'policy.grant.revoke') {
      await state.revoke;
      state.policy = { ...state.policy, grants: state.policy.grants.filter((g) => g.id !== params.id) };
      return { revoked: true };
    }
    throw new Error(`unexpected ${method}`);
  });
  return { client, state };
}

const calls = (client: ReturnType<typeof fakeClient>, method: string) => client.request.mock.calls.filter(([m]) => m === method);

describe('[G12] the Rules page', () => {
  it('[G12][U12] lists the rules by layer with their decisions and reasons, the unmatched default, and every live grant', async () => {
    show(gateway().client, <RulesPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Rules' })).toBeInTheDocument();
    const config = await screen.findByRole('table', { name: 'Config approvals.rules' });
    const file = screen.getByRole('table', { name: 'Policy file approvals.file' });
    expect(within(config).getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual([
      'Bash(npm run test *) npm-testsAllow—',
      'Bash(git push *) pushAska person looks first',
    ]);
    expect(within(file).getByRole('rowheader', { name: 'Bash(rm -rf *) no-rm' })).toBeInTheDocument();
    expect(within(file).getByText('Deny')).toBeInTheDocument();
    expect(within(file).getByText('never delete trees')).toBeInTheDocument();
    expect(screen.getByText('When no rule matches:').parentElement).toHaveTextContent('When no rule matches: Ask (unmatched)');

    const grants = screen.getByRole('table', { name: 'Grants' });
    const lint = within(grants).getByRole('row', { name: /Bash\(npm run lint \*\)/ });
    expect(lint).toHaveTextContent('This session s_1');
    expect(within(lint).getByRole('link', { name: 's_1' })).toHaveAttribute('href', '/s/s_1');
    expect(lint).toHaveTextContent('ana');
    expect(lint).toHaveTextContent('in 24 h');
    expect(within(lint).getByRole('link', { name: 'Question q-lint' })).toHaveAttribute('href', '/q/q-lint');
    expect(within(grants).getByRole('row', { name: /Edit\(src\/\*\*\)/ })).toHaveTextContent('Project /work/app');
    // G5: each row's action is named "Revoke"; the rule it ends is its description.
    expect(within(grants).getAllByRole('button', { name: 'Revoke' })).toHaveLength(2);
    expect(within(within(grants).getByRole('row', { name: /Edit\(src/ })).getByRole('button', { name: 'Revoke' })).toHaveAccessibleDescription('Edit(src/**)');
    const { violations } = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });

  it('[G5][G12] one click on Revoke revokes: the row says "Revoking…" while the gateway works, then leaves; nothing asks first', async () => {
    const user = userEvent.setup();
    const { client, state } = gateway();
    let release!: () => void;
    state.revoke = new Promise<void>((r) => (release = r));
    show(client, <RulesPage />);
    const lint = await screen.findByRole('row', { name: /Bash\(npm run lint/ });
    const button = within(lint).getByRole('button', { name: 'Revoke' });
    expect(button).toHaveAccessibleDescription('Bash(npm run lint *)');
    await user.click(button);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls(client, 'policy.grant.revoke')).toEqual([['policy.grant.revoke', { id: 'g1' }]]);
    // Pending: the row stays, says so, and a second click sends nothing more.
    expect(within(lint).getByRole('status')).toHaveTextContent('Revoking…');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
    await user.click(button);
    expect(calls(client, 'policy.grant.revoke')).toHaveLength(1);
    release();
    await waitFor(() => expect(screen.queryByRole('row', { name: /npm run lint/ })).toBeNull());
    // The button that had focus left with its row: focus lands on the list's heading.
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Grants' })).toHaveFocus());
    client.emit('policy.grants.updated', {});
    await waitFor(() => expect(calls(client, 'policy.get').length).toBeGreaterThan(1));
    expect(screen.queryByRole('row', { name: /npm run lint/ })).toBeNull();
    expect(screen.getByRole('row', { name: /Edit\(src/ })).toBeInTheDocument();
  });

  it('[G12][A5] a refused revoke keeps the grant and says why in its row; Revoke tries again', async () => {
    const user = userEvent.setup();
    const client = fakeClient(async (method) => {
      if (method === 'policy.get') return structuredClone(POLICY);
      throw new AskdockError('FORBIDDEN', 'only an admin or the grant maker may revoke it');
    });
    show(client, <RulesPage />);
    const edit = await screen.findByRole('row', { name: /Edit\(src/ });
    await user.click(within(edit).getByRole('button', { name: 'Revoke' }));
    expect(await within(edit).findByRole('alert')).toHaveTextContent('Not revoked: only an admin or the grant maker may revoke it');
    expect(within(edit).getByRole('status')).toHaveTextContent('');
    expect(within(screen.getByRole('row', { name: /npm run lint/ })).queryByRole('alert')).toBeNull();
    await user.click(within(edit).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls(client, 'policy.grant.revoke')).toHaveLength(2));
  });

  it('[G12] two rows revoked at once keep their own state: the first still says "Revoking…" and its refusal shows in its row', async () => {
    const user = userEvent.setup();
    let refuse!: (err: Error) => void;
    const client = fakeClient((method, params) => {
      if (method === 'policy.get') return Promise.resolve(structuredClone(POLICY));
      if (params.id === 'g1') return new Promise((_ok, no) => (refuse = no));
      return new Promise(() => {});
    });
    show(client, <RulesPage />);
    const lint = await screen.findByRole('row', { name: /Bash\(npm run lint/ });
    const edit = screen.getByRole('row', { name: /Edit\(src/ });
    await user.click(within(lint).getByRole('button', { name: 'Revoke' }));
    await user.click(within(edit).getByRole('button', { name: 'Revoke' }));
    expect(within(lint).getByRole('status')).toHaveTextContent('Revoking…');
    expect(within(edit).getByRole('status')).toHaveTextContent('Revoking…');
    await user.click(within(lint).getByRole('button', { name: 'Revoke' }));
    expect(calls(client, 'policy.grant.revoke')).toHaveLength(2);
    refuse(new AskdockError('FORBIDDEN', 'only an admin or the grant maker may revoke it'));
    expect(await within(lint).findByRole('alert')).toHaveTextContent('Not revoked: only an admin or the grant maker may revoke it');
    expect(within(edit).getByRole('status')).toHaveTextContent('Revoking…');
  });

  it('[G12] a grant made or revoked elsewhere shows once policy.grants.updated arrives (the shell keeps the policy in sync)', async () => {
    const { client, state } = gateway({ ...POLICY, grants: [] });
    show(client, (
      <>
        <PolicyBanner onRulesPage />
        <RulesPage />
      </>
    ));
    expect(await screen.findByText('No grants in force.')).toBeInTheDocument();
    state.policy = POLICY;
    client.emit('policy.grants.updated', {});
    expect(await screen.findByRole('row', { name: /npm run lint/ })).toBeInTheDocument();
    state.policy = { ...POLICY, grants: [POLICY.grants[1]] };
    client.emit('policy.grants.updated', {});
    await waitFor(() => expect(screen.queryByRole('row', { name: /npm run lint/ })).toBeNull());
  });
});

describe('[G10] a policy reload that failed, for admins', () => {
  it('[G10] policy.get\'s error shows on the Rules page as an alert; the previous rules stay listed', async () => {
    show(gateway({ ...POLICY, error: '/etc/askdock/policy.json: rules[1].decision: unknown decision "alow"' }).client, <RulesPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Approval policy not reloaded: /etc/askdock/policy.json: rules[1].decision: unknown decision "alow"; the previous policy is in force.',
    );
    expect(screen.getByRole('table', { name: 'Config approvals.rules' })).toBeInTheDocument();
  });

  it('[G10] a policy.updated {error} event tells an admin on any page, with the way to the rules; a good reload clears it', async () => {
    const { client, state } = gateway();
    show(client, (
      <>
        <PolicyBanner onRulesPage={false} />
        <RulesLink active={false} />
      </>
    ));
    await waitFor(() => expect(calls(client, 'policy.get')).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
    state.policy = { ...POLICY, error: 'approvals.rules[0].rule: Bash(npm run test is outside the grammar' };
    client.emit('policy.updated', { loadedAtMs: POLICY.loadedAtMs, error: 'approvals.rules[0].rule: Bash(npm run test is outside the grammar' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Approval policy not reloaded: approvals.rules[0].rule: Bash(npm run test is outside the grammar; the previous policy is in force.');
    expect(within(alert).getByRole('link', { name: 'See the rules' })).toHaveAttribute('href', '/rules');
    expect(screen.getByRole('link', { name: 'Rules' })).toHaveAccessibleDescription('The last policy reload failed');
    state.policy = { ...POLICY, loadedAtMs: NOW };
    client.emit('policy.updated', { loadedAtMs: NOW });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});

describe('[G12][U11] after a reconnect', () => {
  it('[U11][G10] the first connect reads the policy once; every reconnect, resumed or not, reads it again (a reload failing meanwhile shows)', async () => {
    const { client, state } = gateway();
    show(client, <PolicyBanner onRulesPage={false} />);
    await waitFor(() => expect(calls(client, 'policy.get')).toHaveLength(1));
    await act(async () => {});
    expect(calls(client, 'policy.get')).toHaveLength(1);
    state.policy = { ...POLICY, error: 'approvals.rules[0].decision: unknown decision' };
    client.reconnect(true);
    expect(await screen.findByRole('alert')).toHaveTextContent('Approval policy not reloaded: approvals.rules[0].decision: unknown decision');
    expect(calls(client, 'policy.get')).toHaveLength(2);
  });
});

describe('[G12][A5] who sees the rules', () => {
  it('[A5] someone without operator.admin gets no Rules entry, no banner, and never asks for the policy', async () => {
    const client = fakeClient(async () => structuredClone({ ...POLICY, error: 'bad' }), ['operator.questions']);
    show(client, (
      <>
        <PolicyBanner onRulesPage={false} />
        <RulesLink active={false} />
        <RulesPage />
      </>
    ));
    expect(screen.queryByRole('link', { name: 'Rules' })).toBeNull();
    expect(screen.getByText('Only an admin sees the approval policy and its grants.')).toBeInTheDocument();
    client.emit('policy.updated', { loadedAtMs: 1, error: 'bad' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls(client, 'policy.get')).toHaveLength(0);
  });

  it('[G12] an admin has the Rules entry, marked as the current page on it', () => {
    show(gateway().client, <RulesLink active />);
    expect(screen.getByRole('link', { name: 'Rules' })).toHaveAttribute('aria-current', 'page');
  });
});
