import type { QueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import type { EventPayload } from '../../../../protocol/events.ts';
import { questionsKey } from '../../questions/api/get-questions.ts';
import { routingStatusKey } from './get-routing-status.ts';

type RoutingStatus = { questions?: { id: string }[]; secrets?: { id: string }[] };

/** E11: a `question.routed` event puts the new route on the record the dock shows, and marks the On call page stale. */
export function questionRouted(qc: QueryClient, e: EventPayload<'question.routed'>) {
  qc.setQueryData<QuestionRecord[]>(questionsKey, (list) => list?.map((r) => (r.id === e.id ? { ...r, route: e.route } : r)));
  void qc.invalidateQueries({ queryKey: routingStatusKey });
}

export function attachRoutingSync(client: GatewayClient, qc: QueryClient): () => void {
  const routed = client.on('question.routed', (e) => questionRouted(qc, e));
  // E9: a new routed question's words (who it waits for, who is next) come with the next routing.status.
  const stale = () => void qc.invalidateQueries({ queryKey: routingStatusKey });
  const offs = [
    client.on('question.requested', (e) => e.question.route && stale()),
    // E7/E9: a routed question answered anywhere leaves the On call page: asked again when the status lists it, or when
    // a status is on its way (read before this answer, it may list the question yet).
    client.on('question.resolved', (e) => {
      const status = qc.getQueryData<RoutingStatus>(routingStatusKey);
      if (status?.questions?.some((q) => q.id === e.id) || qc.isFetching({ queryKey: routingStatusKey }) > 0) stale();
    }),
    // E9 for K1: a routed secret request's words too; one that ended leaves the On call page.
    client.on('secret.requested', (e) => e.request.route && stale()),
    client.on('secret.routed', stale),
    client.on('secret.resolved', stale),
  ];
  return () => {
    routed();
    offs.forEach((off) => off());
  };
}
