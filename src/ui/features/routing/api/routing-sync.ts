import type { QueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import type { EventPayload } from '../../../../protocol/events.ts';
import { questionsKey } from '../../questions/api/get-questions.ts';
import { routingStatusKey } from './get-routing-status.ts';

/** E11: a `question.routed` event puts the new route on the record the dock shows, and marks the On call page stale. */
export function questionRouted(qc: QueryClient, e: EventPayload<'question.routed'>) {
  qc.setQueryData<QuestionRecord[]>(questionsKey, (list) => list?.map((r) => (r.id === e.id ? { ...r, route: e.route } : r)));
  void qc.invalidateQueries({ queryKey: routingStatusKey });
}

export function attachRoutingSync(client: GatewayClient, qc: QueryClient): () => void {
  return client.on('question.routed', (e) => questionRouted(qc, e));
}
