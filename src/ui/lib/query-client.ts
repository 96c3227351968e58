import { QueryClient } from '@tanstack/react-query';

/** Socket-fed data is kept fresh by events, so queries never go stale on their own. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: Infinity, refetchOnWindowFocus: false, refetchOnReconnect: false, retry: 1 },
      mutations: { retry: 0 },
    },
  });
}
