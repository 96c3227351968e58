import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import { afterNextPaintOrLeave } from '../../../lib/after-paint.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import { useAttention } from '../hooks/use-attention.ts';
import { withDrafts } from '../stores/later-drafts.ts';
import { attachRoutingSync } from '../../routing/api/routing-sync.ts';
import { attachSecretRequestsSync } from './get-secret-requests.ts';
import { helloReceived, questionRequested, questionResolved, questionRetired, questionsKey } from './get-questions.ts';

/** Feeds the questions cache from the socket: hello snapshots and the question events (Q8, Q10). Returns the detach. */
export function attachQuestionsSync(client: GatewayClient, qc: QueryClient): () => void {
  const offs = [
    client.onHello((hello) => helloReceived(qc, hello)),
    client.on('question.requested', (e) => questionRequested(qc, e)),
    client.on('question.resolved', (e) => {
      if (!questionResolved(qc, e) && qc.getQueryData(questionsKey) !== undefined)
        void qc.invalidateQueries({ queryKey: questionsKey, exact: true });
      // Resolved anywhere means there is nothing left to send from this draft. Dropped once the next frame is out (or
      // as the tab is left, so a closed tab keeps no draft): in the event's own task it drew the leaving panel once
      // more without its choice and wrote storage, while the agent that asked was being woken.
      if (e.status !== 'pending') afterNextPaintOrLeave(() => withDrafts((drafts) => drafts.discardDraft(e.id)));
    }),
    client.on('question.retired', (e) => questionRetired(qc, e)),
    // W4: secret requests dock beside questions and follow the same socket.
    attachSecretRequestsSync(client, qc),
    // E11: a routed question's route changes (a step, an ack, a hand-off, an approval) reach the dock the same way.
    attachRoutingSync(client, qc),
  ];
  return () => offs.forEach((off) => off());
}

/** Mounted once, by the app shell, for the signed-in tab's life: every page reads the cache it keeps live. */
export function QuestionsSync() {
  const client = useGateway();
  const qc = useQueryClient();
  useEffect(() => attachQuestionsSync(client, qc), [client, qc]);
  // U13 on every page the app shows (a session, the Inbox, a question link, the empty start), not only beside a dock.
  useAttention();
  return null;
}
