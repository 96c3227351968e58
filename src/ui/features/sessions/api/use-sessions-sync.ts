import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Session } from '../../../../protocol/index.ts';
import { useGateway, useGatewayEvent, useGatewayHello } from '../../../lib/gateway.tsx';
import { mayListSessions, sortSessions, upsertSession } from '../lib/session-list.ts';
import { sessionsKey } from './get-sessions.ts';

/** Keeps the sessions query in step with the socket: each hello's snapshot, then `session.updated` and `session.presence` events. */
export function useSessionsSync() {
  const client = useGateway();
  const queryClient = useQueryClient();

  useGatewayHello((hello) => {
    // A sign-in that may not list sessions gets an empty snapshot: leave the list to sessions.list, which says why (A5).
    if (!mayListSessions(hello.auth.scopes)) return;
    // Every hello carries a fresh snapshot, so on resumed:false it is the refetch itself.
    queryClient.setQueryData<Session[]>(sessionsKey, sortSessions(hello.snapshot.sessions));
    // A snapshot cut to fit maxPayload (P5) holds only some sessions: the list has them all.
    if (hello.snapshot.hasMore) void queryClient.invalidateQueries({ queryKey: sessionsKey });
  });

  useEffect(() => {
    // A hello that landed before this component subscribed still seeds a cold cache.
    const hello = client.hello;
    if (hello && mayListSessions(hello.auth.scopes) && queryClient.getQueryData(sessionsKey) === undefined)
      queryClient.setQueryData<Session[]>(sessionsKey, sortSessions(hello.snapshot.sessions));
  }, [client, queryClient]);

  useGatewayEvent('session.updated', ({ session }) => {
    queryClient.setQueryData<Session[]>(sessionsKey, (list) => upsertSession(list, session));
  });

  useGatewayEvent('session.presence', ({ sessionKey, agentPresence }) => {
    queryClient.setQueryData<Session[]>(sessionsKey, (list) => list?.map((s) => (s.key === sessionKey ? { ...s, agentPresence } : s)));
  });
}
