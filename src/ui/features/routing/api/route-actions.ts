import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import type { RouteState } from '../../../../protocol/routing.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import { questionsKey } from '../../questions/api/get-questions.ts';

function routeSaved(qc: ReturnType<typeof useQueryClient>, id: string, route: RouteState) {
  qc.setQueryData<QuestionRecord[]>(questionsKey, (list) => list?.map((r) => (r.id === id ? { ...r, route } : r)));
}

/** E4: "I'm on it" (`question.ack`). */
export function useAck(id: string) {
  const client = useGateway();
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['routing', 'ack', id],
    mutationFn: () => client.request('question.ack', { id }),
    onSuccess: ({ route }) => routeSaved(qc, id, route),
  });
}

export type HandoffInput = { to: string; note?: string; drafts?: Record<string, string[]> };

/** E6: "Hand off…" (`question.handoff`) with the drafts typed so far. */
export function useHandoff(id: string) {
  const client = useGateway();
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['routing', 'handoff', id],
    mutationFn: (input: HandoffInput) => client.request('question.handoff', { id, ...input }),
    onSuccess: ({ route }) => routeSaved(qc, id, route),
  });
}
