import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import type { EventPayload, HelloOk, SecretRequestRecord } from '../../../../protocol/index.ts';
import type { RouteState } from '../../../../protocol/routing.ts';
import { useGateway } from '../../../lib/gateway.tsx';

export const secretRequestsKey = ['secret-requests'] as const;

/** K1: pending secret requests this identity may answer; records carry a name and a description, never a value. */
export function secretRequestsQueryOptions(client: GatewayClient) {
  return queryOptions({
    queryKey: secretRequestsKey,
    queryFn: async () => (await client.request('secret.list', { status: 'pending' })).requests,
    staleTime: Infinity,
  });
}

export function useSecretRequests<T>(select: (records: SecretRequestRecord[]) => T): T | undefined {
  const client = useGateway();
  // Asked for only where the gateway offers it and the identity may answer secrets; others would be refused (A5).
  const hello = client.hello;
  const scopes = hello?.auth.scopes ?? [];
  const enabled =
    hello?.features?.methods.includes('secret.list') === true &&
    scopes.some((s) => s === 'operator.admin' || s === 'operator.questions' || s === 'operator.sessions.write');
  return useQuery({ ...secretRequestsQueryOptions(client), select, enabled }).data;
}

const byCreated = (a: SecretRequestRecord, b: SecretRequestRecord) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id);

export function secretRequested(qc: QueryClient, request: SecretRequestRecord) {
  if (request.status !== 'pending') return;
  qc.setQueryData<SecretRequestRecord[]>(secretRequestsKey, (list = []) =>
    list.some((r) => r.id === request.id) ? list : [...list, request].sort(byCreated),
  );
}

export function secretEnded(qc: QueryClient, id: string) {
  qc.setQueryData<SecretRequestRecord[]>(secretRequestsKey, (list) => list?.filter((r) => r.id !== id));
}

/**
 * K1: a request ended leaves the dock; E7: a routed one someone provided or skipped stays, read-only, to say who and
 * where ("Answered by Ana · TUI") until it is dismissed. A request this tab provided is gone already (useProvideSecret).
 */
export function secretResolved(qc: QueryClient, e: EventPayload<'secret.resolved'>) {
  const { id, status, resolvedBy } = e;
  const cached = qc.getQueryData<SecretRequestRecord[]>(secretRequestsKey)?.find((r) => r.id === id);
  if (!cached?.route || !resolvedBy || (status !== 'stored' && status !== 'skipped')) return secretEnded(qc, id);
  qc.setQueryData<SecretRequestRecord[]>(secretRequestsKey, (list) => list?.map((r) => (r.id === id ? { ...r, status, resolvedBy } : r)));
}

/** E11 for K1: a `secret.routed` event puts the new route on the cached request: who it waits for, and who may provide it. */
export function secretRouted(qc: QueryClient, id: string, route: RouteState) {
  qc.setQueryData<SecretRequestRecord[]>(secretRequestsKey, (list) => list?.map((r) => (r.id === id ? { ...r, route } : r)));
}

function helloReceived(qc: QueryClient, hello: HelloOk) {
  if (hello.resumed) return; // replayed events bring the list up to date (R2)
  qc.setQueryData<SecretRequestRecord[]>(secretRequestsKey, [...(hello.snapshot.pendingSecrets ?? [])].sort(byCreated));
}

/** Feeds the secret requests cache from the socket: hello snapshots and secret.requested / secret.routed / secret.resolved (K1). */
export function attachSecretRequestsSync(client: GatewayClient, qc: QueryClient): () => void {
  const offs = [
    client.onHello((hello) => helloReceived(qc, hello)),
    client.on('secret.requested', ({ request }) => secretRequested(qc, request)),
    client.on('secret.routed', ({ id, route }) => secretRouted(qc, id, route)),
    client.on('secret.resolved', (e) => secretResolved(qc, e)),
  ];
  return () => offs.forEach((off) => off());
}
