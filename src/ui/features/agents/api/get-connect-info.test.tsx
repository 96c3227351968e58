// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayClient } from '../../../../client/client.ts';
import { GatewayProvider } from '../../../lib/gateway.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { useIsDemoAgent } from './get-connect-info.ts';

afterEach(cleanup);

const absent = { state: 'absent', sinceMs: null } as const;
const agents = [
  { id: 'agent', token: 'adk_demo', presence: { state: 'connected', sinceMs: 1 }, demo: true },
  { id: 'integrations', token: 'adk_int', presence: absent, demo: false },
];

/** A gateway signed in with `scopes`, whose agents.connectInfo answers `agents`. */
function gateway(scopes: string[]) {
  const request = vi.fn(async (method: string) => {
    if (method !== 'agents.connectInfo') throw new Error(`unexpected ${method}`);
    return { agents };
  });
  const client = {
    request,
    hello: { auth: { scopes }, features: { methods: ['agents.connectInfo'], events: [] } },
    on: () => () => {},
    onHello: () => () => {},
    onState: () => () => {},
    state: { status: 'connected' },
  };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={createQueryClient()}>
      <GatewayProvider client={client as unknown as GatewayClient}>{children}</GatewayProvider>
    </QueryClientProvider>
  );
  return { request, wrapper };
}

describe('useIsDemoAgent', () => {
  it('[U18][A6] tells an admin which session agent is the demo agent, and that the integrations agent is not', async () => {
    const { wrapper } = gateway(['operator.admin']);
    const hook = renderHook(() => [useIsDemoAgent('agent'), useIsDemoAgent('integrations'), useIsDemoAgent(null)], { wrapper });
    await waitFor(() => expect(hook.result.current).toEqual([true, false, false]));
  });

  it('[A5] without operator.admin nothing is asked and no session counts as the demo agent\'s', async () => {
    const { wrapper, request } = gateway(['operator.questions']);
    const hook = renderHook(() => useIsDemoAgent('agent'), { wrapper });
    expect(hook.result.current).toBe(false);
    expect(request).not.toHaveBeenCalled();
  });
});
