import { useEffect } from 'react';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import type { EventPayload, HelloOk, QuestionRecord } from '../../../../protocol/index.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import { draftActions } from '../stores/drafts.ts';
import { withResolution } from './resolution.ts';

export const questionsKey = ['questions'] as const;

export async function getQuestions(client: GatewayClient): Promise<QuestionRecord[]> {
  const { questions } = await client.request('question.list', {});
  return questions;
}

/** A terminal record never goes back to pending, so a stale copy must not overwrite a newer outcome. */
function newer(a: QuestionRecord, b: QuestionRecord): QuestionRecord {
  if (a.status !== 'pending' && b.status === 'pending') return a;
  if (b.status !== 'pending' && a.status === 'pending') return b;
  return a.retiredAtMs !== undefined && b.retiredAtMs === undefined ? { ...b, retiredAtMs: a.retiredAtMs } : b;
}

/** Merges fetched records into the cache: nothing visible disappears, and events that raced the fetch are kept. */
export function mergeRecords(prev: QuestionRecord[] | undefined, next: QuestionRecord[]): QuestionRecord[] {
  if (!prev?.length) return [...next].sort(byCreated);
  const byId = new Map(prev.map((r) => [r.id, r]));
  for (const r of next) byId.set(r.id, byId.has(r.id) ? newer(byId.get(r.id)!, r) : r);
  return [...byId.values()].sort(byCreated);
}

const byCreated = (a: QuestionRecord, b: QuestionRecord) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id);

/**
 * Keeps the previous array when it holds the same records: `mergeRecords` and the events keep an unchanged record's
 * object, so a shallow look is enough, where react-query's default deep comparison walks every record ever seen on
 * each event.
 */
function shareShallow(previous: unknown, next: unknown): unknown {
  if (!Array.isArray(previous) || !Array.isArray(next) || previous.length !== next.length) return next;
  return next.every((item, i) => item === previous[i]) ? previous : next;
}

/** Every question this identity may see, any status (A3): the dock shows the pending ones, the transcript the rest. */
export function questionsQueryOptions(client: GatewayClient) {
  return queryOptions({
    queryKey: questionsKey,
    queryFn: async ({ client: queryClient }) =>
      mergeRecords(queryClient.getQueryData<QuestionRecord[]>(questionsKey), await getQuestions(client)),
    staleTime: Infinity,
    structuralSharing: shareShallow,
  });
}

export function useQuestions<T>(select: (records: QuestionRecord[]) => T): T | undefined {
  return useQuery({ ...questionsQueryOptions(useGateway()), select }).data;
}

export function questionRequested(qc: QueryClient, { question }: EventPayload<'question.requested'>) {
  qc.setQueryData<QuestionRecord[]>(questionsKey, (list) => mergeRecords(list, [question]));
}

export function questionResolved(qc: QueryClient, e: EventPayload<'question.resolved'>): boolean {
  let known = false;
  qc.setQueryData<QuestionRecord[]>(questionsKey, (list) =>
    list?.map((r) => {
      if (r.id !== e.id) return r;
      known = true;
      return withResolution(r, e);
    }),
  );
  return known;
}

export function questionRetired(qc: QueryClient, e: EventPayload<'question.retired'>) {
  qc.setQueryData<QuestionRecord[]>(questionsKey, (list) =>
    list?.map((r) => (r.id === e.id ? { ...r, retiredAtMs: e.retiredAtMs ?? Date.now() } : r)),
  );
}

function helloReceived(qc: QueryClient, hello: HelloOk) {
  if (hello.resumed) return; // replayed events bring the cache up to date (R2)
  qc.setQueryData<QuestionRecord[]>(questionsKey, (list) => mergeRecords(list, hello.snapshot.pendingQuestions));
  // The snapshot holds only pending ones; outcomes missed while away come with the list.
  void qc.invalidateQueries({ queryKey: questionsKey }, { cancelRefetch: false });
}

/** One subscription per (gateway client, query client), however many components ask for it. */
const attached = new WeakMap<GatewayClient, Map<QueryClient, { count: number; detach: () => void }>>();

function attach(client: GatewayClient, qc: QueryClient): () => void {
  const offs = [
    client.onHello((hello) => helloReceived(qc, hello)),
    client.on('question.requested', (e) => questionRequested(qc, e)),
    client.on('question.resolved', (e) => {
      if (!questionResolved(qc, e)) void qc.invalidateQueries({ queryKey: questionsKey });
      // Resolved anywhere means there is nothing left to send from this draft.
      if (e.status !== 'pending') draftActions().draftDiscarded(e.id);
    }),
    client.on('question.retired', (e) => questionRetired(qc, e)),
  ];
  return () => offs.forEach((off) => off());
}

/** Keeps the questions query live from the socket: hello snapshots and the question events (Q8, Q10). */
export function useQuestionsSync() {
  const client = useGateway();
  const qc = useQueryClient();
  useEffect(() => {
    let perClient = attached.get(client);
    if (!perClient) attached.set(client, (perClient = new Map()));
    const entry = perClient.get(qc) ?? { count: 0, detach: attach(client, qc) };
    entry.count++;
    perClient.set(qc, entry);
    return () => {
      entry.count--;
      if (entry.count > 0) return;
      entry.detach();
      perClient.delete(qc);
    };
  }, [client, qc]);
}
