import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import type { AgentPresence, Session } from '../../../../protocol/index.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import { sessionTitle, sortSessions } from '../lib/session-list.ts';

export const sessionsKey = ['sessions'] as const;

export async function getSessions(client: GatewayClient): Promise<Session[]> {
  const { sessions } = await client.request('sessions.list', {});
  return sortSessions(sessions);
}

/** Fed by hello-ok snapshots and `session.updated` events (use-sessions-sync.ts); the fetch covers a cold cache. */
export function sessionsQueryOptions(client: GatewayClient) {
  return queryOptions({ queryKey: sessionsKey, queryFn: () => getSessions(client), staleTime: Infinity });
}

export function useSessions() {
  return useQuery(sessionsQueryOptions(useGateway()));
}

/** One session's title, re-rendering its reader only when the title itself changes. */
export function useSessionTitle(sessionKey: string): string | undefined {
  return useQuery({
    ...sessionsQueryOptions(useGateway()),
    select: (sessions: Session[]) => {
      const session = sessions.find((s) => s.key === sessionKey);
      return session ? sessionTitle(session) : undefined;
    },
  }).data;
}

/** U18: one session's agent presence; absent where the gateway gives none (a session without an agent). */
export function useSessionPresence(sessionKey: string): AgentPresence | undefined {
  return useQuery({
    ...sessionsQueryOptions(useGateway()),
    select: (sessions: Session[]) => sessions.find((s) => s.key === sessionKey)?.agentPresence,
  }).data;
}

/** A6: the agent identity one session is bound to (null without one, undefined while unknown). */
export function useSessionAgentId(sessionKey: string): string | null | undefined {
  return useQuery({
    ...sessionsQueryOptions(useGateway()),
    select: (sessions: Session[]) => sessions.find((s) => s.key === sessionKey)?.agentId,
  }).data;
}
