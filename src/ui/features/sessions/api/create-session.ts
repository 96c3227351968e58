import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import type { Session } from '../../../../protocol/index.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import { upsertSession } from '../lib/session-list.ts';
import { sessionsKey } from './get-sessions.ts';

export async function createSession(client: GatewayClient, input: { title?: string } = {}): Promise<Session> {
  const { session } = await client.request('sessions.create', input);
  return session;
}

export function useCreateSession() {
  const client = useGateway();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { title?: string } = {}) => createSession(client, input),
    // The list shows the new session at once, before its session.updated event arrives.
    onSuccess: (session) => queryClient.setQueryData<Session[]>(sessionsKey, (list) => upsertSession(list, session)),
  });
}
