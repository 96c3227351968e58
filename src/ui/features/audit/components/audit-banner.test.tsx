// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayClient } from '../../../../client/client.ts';
import { Listeners } from '../../../../lib/listeners.ts';
import { GatewayProvider } from '../../../lib/gateway.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { AuditBanner } from './audit-banner.tsx';
import { AuditWatch } from './audit-watch.tsx';

afterEach(cleanup);

type Checkpoint = { checkpoint: string | null; treeSize: number; unsigned?: boolean; integrity?: { ok: boolean; detail?: string } };

/** A gateway client whose `audit.checkpoint` answers `answer`; `audit.integrity` events are sent by hand. */
function fakeClient(answer: () => Checkpoint, scopes = ['operator.admin']) {
  const integrity = new Listeners<[unknown]>();
  const request = vi.fn(async (method: string) => {
    if (method === 'audit.checkpoint') return answer();
    throw new Error(`unexpected ${method}`);
  });
  return {
    request,
    hello: { auth: { identity: 'ana', role: 'operator', scopes }, features: { methods: ['audit.checkpoint', 'audit.acknowledge'], events: ['audit.integrity'] } },
    state: { status: 'connected', attempt: 0 },
    on: (event: string, handler: (p: unknown) => void) => (event === 'audit.integrity' ? integrity.add(handler) : () => {}),
    onHello: () => () => {},
    onState: () => () => {},
    integrity: (payload: unknown) => act(() => integrity.emit(payload)),
  };
}

function show(client: ReturnType<typeof fakeClient>, ui: ReactNode) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <GatewayProvider client={client as unknown as GatewayClient}>{ui}</GatewayProvider>
    </QueryClientProvider>,
  );
}

const DETAIL = 'the stored entries no longer match the checkpoint of size 2: an entry below index 2 was changed';

describe('[L7][L8] the audit log\'s notice for admins', () => {
  it('[L7] a failed self-check names the problem and `askdock audit acknowledge`; the acknowledgement\'s event takes it away', async () => {
    let integrity: { ok: boolean; detail?: string } = { ok: false, detail: DETAIL };
    const client = fakeClient(() => ({ checkpoint: null, treeSize: 3, integrity }));
    show(client, <AuditWatch />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`Audit log does not match its signed checkpoints: ${DETAIL}.`);
    expect(alert).toHaveTextContent('No checkpoint is signed until an admin has looked into it and runs askdock audit acknowledge.');
    integrity = { ok: true };
    client.integrity({ ok: true });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('[L7] a check that fails while the page is open shows at once from its event', async () => {
    let integrity: { ok: boolean; detail?: string } = { ok: true };
    const client = fakeClient(() => ({ checkpoint: null, treeSize: 3, integrity }));
    show(client, <AuditWatch />);
    await waitFor(() => expect(client.request).toHaveBeenCalledWith('audit.checkpoint', {}));
    expect(screen.queryByRole('alert')).toBeNull();
    integrity = { ok: false, detail: 'entry 4 is missing from the log' };
    client.integrity(integrity);
    expect(await screen.findByRole('alert')).toHaveTextContent('entry 4 is missing from the log.');
  });

  it('[L8] an unsigned gateway: one clear line, "audit: unsigned", with what it means', async () => {
    show(fakeClient(() => ({ checkpoint: null, treeSize: 3, unsigned: true, integrity: { ok: true } })), <AuditWatch />);
    const line = await screen.findByRole('status');
    expect(line).toHaveTextContent('audit: unsigned. This gateway has no usable signing key: decisions are logged but get no receipts, and askdock audit export needs --unsigned.');
    expect(within(line).getByText('audit: unsigned', { exact: true }).tagName).toBe('STRONG');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('[L7][A5] someone without operator.admin is never told, and never asks', async () => {
    const client = fakeClient(() => ({ checkpoint: null, treeSize: 3, unsigned: true, integrity: { ok: false, detail: DETAIL } }), ['operator.questions']);
    const { container } = show(client, <AuditBanner />);
    client.integrity({ ok: false, detail: DETAIL });
    expect(container).toBeEmptyDOMElement();
    expect(client.request).not.toHaveBeenCalled();
  });
});
