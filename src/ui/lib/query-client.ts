import { QueryClient } from '@tanstack/react-query';
import { isSettledRefusal } from './error-message.ts';

/**
 * Socket-fed data is kept fresh by events, so queries never go stale on their own. Every request goes through the
 * gateway client, which queues and re-sends across reconnects (P7), so react-query must not also pause on
 * `navigator.onLine`: a paused mutation would hold an outbox answer out of its Queued state while offline (U9).
 * A FORBIDDEN or *_NOT_FOUND is not retried: it stays the same, and a retry pauses in a hidden tab, leaving "Loading…".
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: Infinity, refetchOnWindowFocus: false, refetchOnReconnect: false, retry: (failures, error) => failures < 1 && !isSettledRefusal(error), networkMode: 'always' },
      mutations: { retry: 0, networkMode: 'always' },
    },
  });
}
