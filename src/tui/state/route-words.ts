import type { GatewayClient } from '../../client/client.ts';
import type { RoutingStatusResult } from '../../protocol/routing.ts';
import { update } from './sync.ts';
import type { TuiStore } from './tui-store.ts';

/** E9: one routed question in words, as routing.status gives it: who it waits for, who is next, what it never reaches. */
export type RouteWords = RoutingStatusResult['questions'][number];

/**
 * E9: keeps the routed questions' words (display names, not ids) in the store: read from routing.status when a routed
 * question arrives, its route changes, or the connection comes back. Reads never overlap: a change heard during one
 * reads again once it is done.
 */
export function watchRouteWords(client: GatewayClient, store: TuiStore): () => void {
  let reading = false;
  let again = false;
  const read = async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const { questions } = await client.request('routing.status', {});
        update(store, () => ({ routeWords: Object.fromEntries(questions.map((q) => [q.id, q])) }));
      } while (again);
    } catch {
      // A gateway without routing (or a dropped connection): the prompt names the people notified by id.
    } finally {
      reading = false;
    }
  };
  const offs = [
    client.on('question.requested', (p) => void (p.question.route && read())),
    client.on('question.routed', () => void read()),
    client.onHello((hello) => void (hello.snapshot.pendingQuestions.some((q) => q.route) && read())),
  ];
  return () => offs.forEach((off) => off());
}
