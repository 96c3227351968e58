import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import type { Session } from '../../../../protocol/index.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import { upsertSession } from '../lib/session-list.ts';
import { sessionsKey } from './get-sessions.ts';

export async function renameSession(client: GatewayClient, input: { sessionKey: string; title: string }): Promise<Session> {
  const { session } = await client.request('sessions.update', input);
  return session;
}

/** C1 `sessions.update`: the list shows the new title at once; `session.updated` brings it to every other tab. */
export function useRenameSession() {
  const client = useGateway();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { sessionKey: string; title: string }) => renameSession(client, input),
    onSuccess: (session) => queryClient.setQueryData<Session[]>(sessionsKey, (list) => upsertSession(list, session)),
  });
}
