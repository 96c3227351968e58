import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import type { EventPayload, HelloOk, QuestionRecord, QuorumState } from '../../../../protocol/index.ts';
import { useGateway } from '../../../lib/gateway.tsx';

export const questionsKey = ['questions'] as const;

export async function getQuestions(client: GatewayClient): Promise<QuestionRecord[]> {
  const { questions } = await client.request('question.list', {});
  return questions;
}

/** A terminal record never goes back to pending, so a stale copy must not overwrite a newer outcome. */
function newer(a: QuestionRecord, b: QuestionRecord): QuestionRecord {
  if (a.status !== 'pending' && b.status === 'pending') return a;
  if (b.status !== 'pending' && a.status === 'pending') return b;
  // Retiring happens again (U8) but is never undone: the latest retirement wins.
  return a.retiredAtMs !== undefined && (b.retiredAtMs === undefined || a.retiredAtMs > b.retiredAtMs) ? { ...b, retiredAtMs: a.retiredAtMs } : b;
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

/**
 * Applies an event to the list. A list made from events alone is not the whole list: it is marked stale, so whoever
 * shows it reads it in full first (a fetch in flight keeps going and merges into it).
 */
function updateList(qc: QueryClient, update: (list: QuestionRecord[]) => QuestionRecord[]) {
  const had = qc.getQueryData(questionsKey) !== undefined;
  qc.setQueryData<QuestionRecord[]>(questionsKey, (list) => update(list ?? []));
  if (!had) void qc.invalidateQueries({ queryKey: questionsKey, exact: true, refetchType: 'none' });
}

/** A record read on its own (`question.get`, the link page) joins the list, as its events will find it there. */
export function questionRead(qc: QueryClient, question: QuestionRecord) {
  updateList(qc, (list) => mergeRecords(list, [question]));
}

export function questionRequested(qc: QueryClient, { question }: EventPayload<'question.requested'>) {
  updateList(qc, (list) => mergeRecords(list, [question]));
}

/** Returns whether the list knew the record. */
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

/** E5: a held Allow's quorum so far, as question.resolve answered it (its question.routed event may come later, or first). */
export function voteHeld(qc: QueryClient, id: string, quorum: QuorumState | undefined) {
  if (!quorum) return;
  qc.setQueryData<QuestionRecord[]>(questionsKey, (list) =>
    list?.map((r) => (r.id === id && r.route && r.status === 'pending' && (r.route.quorum?.approvals.length ?? 0) <= quorum.approvals.length ? { ...r, route: { ...r.route, quorum } } : r)),
  );
}

export function questionRetired(qc: QueryClient, e: EventPayload<'question.retired'>) {
  qc.setQueryData<QuestionRecord[]>(questionsKey, (list) =>
    list?.map((r) => (r.id === e.id ? { ...r, retiredAtMs: e.retiredAtMs ?? Date.now() } : r)),
  );
}

/** A hello brings a list already read up to date; one nobody has read yet is read whole when first shown. */
export function helloReceived(qc: QueryClient, hello: HelloOk) {
  if (hello.resumed) return; // replayed events bring the cache up to date (R2)
  if (qc.getQueryData(questionsKey) === undefined) return;
  qc.setQueryData<QuestionRecord[]>(questionsKey, (list) => mergeRecords(list, hello.snapshot.pendingQuestions));
  // The snapshot holds only pending ones; outcomes missed while away come with the list.
  void qc.invalidateQueries({ queryKey: questionsKey, exact: true }, { cancelRefetch: false });
}

/** A record with its `question.resolved` event applied; what the event leaves out stays as it was. */
export function withResolution(record: QuestionRecord, e: EventPayload<'question.resolved'>): QuestionRecord {
  return {
    ...record,
    status: e.status,
    answers: e.answers ?? record.answers,
    resolvedBy: e.resolvedBy ?? record.resolvedBy,
    reason: e.reason ?? record.reason,
    replyMessageId: e.replyMessageId ?? record.replyMessageId,
    receipt: e.receipt ?? record.receipt,
  };
}
