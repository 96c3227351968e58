import type { TestClient } from './ws-client.ts';

/**
 * Positive barriers for checks that something did NOT happen, in place of a sleep that guesses how long it might take.
 *
 * The gateway sends a committed event to every connection in one pass, and each connection's frames leave in order.
 * So once one connection has an event, the answer to a request sent afterwards on any other connection arrives after
 * whatever of that event (and of every earlier commit) was meant for it.
 */
export async function roundTrips(clients: readonly TestClient[]): Promise<void> {
  await Promise.all(
    clients.map((c) => {
      // Any method will do: an answer, even a refusal, comes back after what the gateway wrote on the socket before it.
      const id = `barrier-${++sent}`;
      void c.request('sessions.list', {}, id);
      // A socket the gateway closed meanwhile answers nothing more: its close is the last thing on it.
      return c.until(() => (c.closed || c.responses.some((r) => r.id === id) ? true : undefined), undefined, 'a round trip');
    }),
  );
}

let sent = 0;

/**
 * `viewer` (an identity that sees every session, such as admin) makes a commit and waits for its event; then every
 * connection in `others` makes a round trip. Work started before this (a timer's, an earlier request's) was committed
 * ahead of it, so its events, if any, have reached every connection named: what they lack did not happen.
 * Creates a session titled `barrier`. Returns the seq of its event.
 */
export async function laterCommit(viewer: TestClient, others: readonly TestClient[] = []): Promise<number> {
  const { session } = await viewer.call('sessions.create', { title: 'barrier' });
  const { seq } = await viewer.waitEvent('session.updated', (e) => e.session.key === session.key);
  await roundTrips(others);
  return seq!;
}
