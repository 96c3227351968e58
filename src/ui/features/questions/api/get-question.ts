import { useRef } from 'react';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import type { EventPayload, QuestionRecord } from '../../../../protocol/index.ts';
import { useGateway, useGatewayEvent, useGatewayHello } from '../../../lib/gateway.tsx';
import { errorCode } from '../../../lib/error-message.ts';
import { draftActions } from '../stores/drafts.ts';
import { withResolution } from './resolution.ts';

/** A link page that cannot load says so after this long instead of waiting out the client's default. */
const LOAD_TIMEOUT_MS = 10_000;

export const questionLinkKey = (id: string) => ['question-link', id] as const;

export async function getQuestion(client: GatewayClient, id: string): Promise<QuestionRecord> {
  const { question } = await client.request('question.get', { id }, { timeoutMs: LOAD_TIMEOUT_MS });
  return question;
}

/** Not found (or not visible, A4) is an answer, not a failure: it is never retried and never turns back. */
export const isGone = (error: unknown) => errorCode(error) === 'QUESTION_NOT_FOUND';

export function questionLinkQueryOptions(client: GatewayClient, id: string) {
  return queryOptions({
    queryKey: questionLinkKey(id),
    queryFn: () => getQuestion(client, id),
    // Events keep it current only while the page is open, so a pending copy is read again on each visit; an ended one never changes.
    staleTime: (query) => (query.state.data && query.state.data.status !== 'pending' ? Infinity : 0),
    retry: (count, error) => !isGone(error) && count < 1,
  });
}

/** A terminal record never goes back to pending, so a stale copy must not overwrite an outcome. */
export function questionEnded(qc: QueryClient, e: EventPayload<'question.resolved'>) {
  qc.setQueryData<QuestionRecord>(questionLinkKey(e.id), (record) => (record?.status === 'pending' ? withResolution(record, e) : record));
  if (e.status !== 'pending') draftActions().draftDiscarded(e.id);
}

/**
 * One question, kept live: its `question.resolved` event ends it in place; after a reconnect it is read again
 * when the gateway could not resume (R2) or when the last load failed. Ended or gone, it is never read again.
 */
export function useQuestionLink(id: string) {
  const client = useGateway();
  const qc = useQueryClient();
  const query = useQuery(questionLinkQueryOptions(client, id));
  const helloSeen = useRef(client.hello !== null);

  useGatewayEvent('question.resolved', (e) => {
    if (e.id === id) questionEnded(qc, e);
  });

  useGatewayHello((hello) => {
    const reconnect = helloSeen.current;
    helloSeen.current = true;
    if (!reconnect) return;
    const state = qc.getQueryState<QuestionRecord>(questionLinkKey(id));
    if (!state || isGone(state.error) || (state.data && state.data.status !== 'pending')) return;
    if (state.status === 'error' || !hello.resumed) void qc.refetchQueries({ queryKey: questionLinkKey(id) });
  });

  return query;
}
