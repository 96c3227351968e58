import * as z from 'zod';

/** U19: what a person may type into the search box. */
export const SEARCH_QUERY_MAX = 200;
export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;

export const SearchParams = z.object({
  query: z
    .string({ error: 'query must be a string' })
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, { error: 'query must not be blank' })
        .max(SEARCH_QUERY_MAX, { error: `query must be at most ${SEARCH_QUERY_MAX} characters` }),
    ),
  limit: z
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be an integer' })
    .min(1, { error: `limit must be 1..${SEARCH_LIMIT_MAX}` })
    .max(SEARCH_LIMIT_MAX, { error: `limit must be 1..${SEARCH_LIMIT_MAX}` })
    .optional(),
});

export const SearchHitKind = z.enum(['session', 'message', 'question']);
export type SearchHitKind = z.infer<typeof SearchHitKind>;

/**
 * One match: a session's title, a message, or a question record (its headers, questions and answers). `snippet` is the
 * matching text cut around the first match; `highlights` are [start, end) ranges of the matched words in `snippet`.
 */
export const SearchResult = z.object({
  kind: SearchHitKind,
  /** The session's key, the message's id or the question's id. */
  id: z.string(),
  /** Absent for a sessionless question (the Inbox). */
  sessionKey: z.string().optional(),
  sessionTitle: z.string(),
  snippet: z.string(),
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
  atMs: z.number(),
});
export type SearchResult = z.infer<typeof SearchResult>;

/** Newest first, at most `limit`; only what this identity may see (A3, A6). */
export const SearchResponse = z.object({ results: z.array(SearchResult) });
