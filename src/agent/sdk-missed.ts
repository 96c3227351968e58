/**
 * R2 + C3: what a connection that could not be resumed (`resumed:false`) did not replay, read back from chat.history:
 * the user messages of a session numbered after the cursor the agent had.
 */
import type { GatewayClient } from '../client/client.ts';
import { AskdockError, type ChatMessage, type HelloOk } from '../protocol/index.ts';

/** Messages per chat.history page while reading back (C3 allows up to 500). */
const PAGE = 100;

/** The user messages of `sessionKey` with a seq after `after`, oldest first; none when the session is gone (A4). */
export async function missedUserMessages(client: GatewayClient, sessionKey: string, after: number): Promise<ChatMessage[]> {
  // Pages come newest first, each listed oldest first: kept in reading order, turned around once at the end.
  const pages: ChatMessage[][] = [];
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
    pages.push(newer);
    // A page that reaches back to the cursor holds the oldest missed message: older pages hold none.
    if (!page.hasMore || page.messages.length === 0 || newer.length < page.messages.length) break;
    before = page.messages[0].id;
  }
  return pages.reverse().flat().filter((m) => m.role === 'user');
}

type SessionSummary = { key: string; lastMessageAtMs: number | null };

/**
 * How much older than the newest message seen a session's last one may be and still be read back: a message is stamped
 * before its commit (one stored after the newest seen may carry an earlier time), and gateways' clocks differ a little.
 */
const STAMP_SLACK_MS = 10_000;

/**
 * Which sessions to read back: with `''` (all) subscribed, every session with a message at or after `sinceMs` (the
 * newest message the agent saw before the drop, less STAMP_SLACK_MS; every session with a message when it saw none),
 * plus the other keys.
 */
export function sessionsToReadBack(subscribed: Iterable<string>, sessions: readonly SessionSummary[], sinceMs?: number): string[] {
  const keys = [...subscribed];
  const stale = (s: SessionSummary) => s.lastMessageAtMs === null || (sinceMs !== undefined && s.lastMessageAtMs < sinceMs - STAMP_SLACK_MS);
  const skipped = new Set(sessions.filter(stale).map((s) => s.key));
  const explicit = keys.filter((k) => k !== '' && !skipped.has(k));
  if (!keys.includes('')) return explicit;
  const active = sessions.filter((s) => !stale(s)).map((s) => s.key);
  return [...new Set([...active, ...explicit])];
}

/** The sessions the agent may see: the hello's snapshot, or sessions.list (C1) when the snapshot was cut to fit (`hasMore`). */
export async function visibleSessions(client: GatewayClient, hello: HelloOk): Promise<readonly SessionSummary[]> {
  if (!hello.snapshot.hasMore) return hello.snapshot.sessions;
  return (await client.request('sessions.list', {})).sessions;
}

/** Reads back every session in `keys`: what the readable ones missed, oldest first, and the keys that could not be read. */
export async function readBack(client: GatewayClient, keys: readonly string[], after: number): Promise<{ found: ChatMessage[]; failed: { key: string; reason: unknown }[] }> {
  const results = await Promise.allSettled(keys.map((key) => missedUserMessages(client, key, after)));
  const read: ChatMessage[][] = [];
  const failed: { key: string; reason: unknown }[] = [];
  results.forEach((r, i) => (r.status === 'fulfilled' ? read.push(r.value) : failed.push({ key: keys[i], reason: r.reason })));
  return { found: read.flat(), failed };
}
