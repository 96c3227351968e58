/**
 * R2 + C3: what a connection that could not be resumed (`resumed:false`) did not replay, read back from chat.history:
 * the user messages of a session numbered after the cursor the agent had.
 */
import type { GatewayClient } from '../client/client.ts';
import { AskdockError, type ChatMessage } from '../protocol/index.ts';

/** Messages per chat.history page while reading back (C3 allows up to 500). */
const PAGE = 100;

/** The user messages of `sessionKey` with a seq after `after`, oldest first; none when the session is gone (A4). */
export async function missedUserMessages(client: GatewayClient, sessionKey: string, after: number): Promise<ChatMessage[]> {
  const found: ChatMessage[] = [];
  let before: string | undefined;
  for (;;) {
    let page;
    try {
      page = await client.request('chat.history', { sessionKey, limit: PAGE, ...(before !== undefined ? { before } : {}) });
    } catch (err) {
      if (err instanceof AskdockError && err.code === 'SESSION_NOT_FOUND') return [];
      throw err;
    }
    const newer = page.messages.filter((m) => m.seq > after);
    found.unshift(...newer);
    // A page that reaches back to the cursor holds the oldest missed message: older pages hold none.
    if (!page.hasMore || page.messages.length === 0 || newer.length < page.messages.length) break;
    before = page.messages[0].id;
  }
  return found.filter((m) => m.role === 'user');
}

/** Which sessions to read back: every session in the snapshot that has messages when `''` (all) is subscribed, else the keys. */
export function sessionsToReadBack(subscribed: Iterable<string>, snapshot: readonly { key: string; lastMessageAtMs: number | null }[]): string[] {
  const keys = [...subscribed];
  if (!keys.includes('')) return keys;
  const active = snapshot.filter((s) => s.lastMessageAtMs !== null).map((s) => s.key);
  return [...new Set([...active, ...keys.filter((k) => k !== '')])];
}
