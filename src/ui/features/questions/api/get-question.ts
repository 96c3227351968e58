import { useCallback, useRef } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useGateway, useGatewayHello } from '../../../lib/gateway.tsx';
import { errorCode } from '../../../lib/error-message.ts';
import { questionRead, questionsQueryOptions } from './get-questions.ts';

/** A link page that cannot load says so after this long instead of waiting out the client's default. */
const LOAD_TIMEOUT_MS = 10_000;

/** The state of reading one record by `question.get`; the record itself lives in the questions list. */
export const questionGetKey = (id: string) => ['question.get', id] as const;

/** Not found (or not visible, A4) is an answer, not a failure: it is never retried and never turns back. */
export const isGone = (error: unknown) => errorCode(error) === 'QUESTION_NOT_FOUND';

/** Reads one record, which the list may not hold (an old one, or a list not read yet), into the list. */
async function readQuestion(client: GatewayClient, qc: QueryClient, id: string): Promise<QuestionRecord['status']> {
  const { question } = await client.request('question.get', { id }, { timeoutMs: LOAD_TIMEOUT_MS });
  questionRead(qc, question);
  return question.status;
}

/**
 * One question from the questions cache, kept live by its events like every other. A pending one is read again by
 * `question.get` on each visit, and after a reconnect when the gateway could not resume (R2) or the last read failed;
 * it shows once read, so a page that could not confirm it says so. Ended or gone, it is never read again.
 */
export function useQuestion(id: string) {
  const client = useGateway();
  const qc = useQueryClient();
  const select = useCallback((list: QuestionRecord[]) => list.find((r) => r.id === id), [id]);
  // Only observes the list: reading it whole is for the pages that show it.
  const cached = useQuery({ ...questionsQueryOptions(client), enabled: false, select }).data;
  const ended = cached !== undefined && cached.status !== 'pending';
  const read = useQuery({
    queryKey: questionGetKey(id),
    queryFn: () => readQuestion(client, qc, id),
    enabled: !ended,
    staleTime: 0,
    retry: (count, error) => !isGone(error) && count < 1,
  });
  const helloSeen = useRef(client.hello !== null);

  useGatewayHello((hello) => {
    const reconnect = helloSeen.current;
    helloSeen.current = true;
    if (!reconnect || ended || isGone(read.error)) return;
    if (read.isError || !hello.resumed) void read.refetch();
  });

  const gone = isGone(read.error);
  const record = !gone && cached && (ended || read.data !== undefined) ? cached : undefined;
  return { record, gone, error: read.isError ? read.error : null, fetching: read.isFetching, retry: () => void read.refetch() };
}
