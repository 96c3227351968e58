import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import type { SearchResult } from '../../../../protocol/index.ts';
import { searchTerms } from '../../../../lib/search-text.ts';
import { useGateway } from '../../../lib/gateway.tsx';

export const searchKey = (query: string) => ['search', query] as const;

/** U19: what the gateway finds for these words (only what this identity may see). */
export async function runSearch(client: GatewayClient, query: string): Promise<SearchResult[]> {
  const { results } = await client.request('search', { query, limit: 30 });
  return results;
}

/** Results for the words typed; the last results stay up while the next ones load, so the list does not flicker. */
export function useSearch(query: string) {
  const client = useGateway();
  const words = searchTerms(query).join(' ');
  return useQuery({
    queryKey: searchKey(words),
    queryFn: () => runSearch(client, words),
    enabled: words.length > 0,
    // Messages and answers arrive all the time: a search is read again when asked again, never kept for long.
    staleTime: 5_000,
    placeholderData: keepPreviousData,
  });
}

/** One session's results, in the order the gateway gave them (newest first). */
export type SearchGroup = { sessionKey?: string; title: string; results: SearchResult[] };

export function groupBySession(results: readonly SearchResult[]): SearchGroup[] {
  const groups = new Map<string, SearchGroup>();
  for (const r of results) {
    const key = r.sessionKey ?? '';
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { ...(r.sessionKey ? { sessionKey: r.sessionKey } : {}), title: r.sessionTitle, results: [] }));
    group.results.push(r);
  }
  return [...groups.values()];
}
