import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import type { HistoryData, HistoryPage } from '../lib/history-cache.ts';

export const HISTORY_PAGE_SIZE = 50;

export const chatKeys = {
  all: ['chat'] as const,
  history: (sessionKey: string) => ['chat', 'history', sessionKey] as const,
};

export async function getHistory(client: GatewayClient, sessionKey: string, before?: string): Promise<HistoryPage> {
  const result = await client.request('chat.history', { sessionKey, limit: HISTORY_PAGE_SIZE, ...(before ? { before } : {}) });
  return { messages: result.messages, hasMore: result.hasMore };
}

/** Page 0 is the newest chunk; "Load earlier" asks for messages before the oldest one loaded (C3). */
export function historyQueryOptions(client: GatewayClient, sessionKey: string) {
  return infiniteQueryOptions<HistoryPage, Error, HistoryData, ReturnType<typeof chatKeys.history>, string | undefined>({
    queryKey: chatKeys.history(sessionKey),
    queryFn: ({ pageParam }) => getHistory(client, sessionKey, pageParam),
    initialPageParam: undefined,
    getNextPageParam: (page) => (page.hasMore ? page.messages[0]?.id : undefined),
    staleTime: Infinity,
  });
}

export function useHistory(sessionKey: string) {
  return useInfiniteQuery(historyQueryOptions(useGateway(), sessionKey));
}
