import type { Store } from '../store/types.ts';

/** Where older versions kept every client's subscriptions in one row; still read at start. */
const LEGACY_META_KEY = 'agent.subscriptions';
const ALL = '*';

/** One row per client; the key never holds a NUL (PostgreSQL text cannot). */
const metaKey = (identityId: string, clientId: string) => `agent.subscriptions/${encodeURIComponent(identityId)}/${encodeURIComponent(clientId)}`;

/**
 * C6: which sessions each agent client listens to. Kept per (identity, client id) and saved, one row per client, so a
 * reconnect, a gateway restart or a resume on another gateway of the same database (D2) replays (R2) the user
 * messages it missed before the agent has subscribed again: a connecting agent's row is read again from the store.
 */
export class AgentSubscriptions {
  private readonly byClient = new Map<string, Set<string>>();

  constructor(private readonly store: Store) {}

  /** Reads the legacy row once, at start. */
  async load(): Promise<void> {
    const saved = await this.store.getMeta(LEGACY_META_KEY);
    if (!saved) return;
    try {
      const rows = JSON.parse(saved) as Record<string, string[]>;
      for (const [key, keys] of Object.entries(rows)) this.byClient.set(key, new Set(keys));
    } catch {
      // A damaged row only costs replay until the agent subscribes again.
    }
  }

  private key(identityId: string, clientId: string): string {
    return `${identityId}\u0000${clientId}`;
  }

  /** The live set for a client: connections of the same client share it. */
  of(identityId: string, clientId: string): ReadonlySet<string> {
    return this.byClient.get(this.key(identityId, clientId)) ?? new Set();
  }

  static matches(set: ReadonlySet<string>, sessionKey: string | null): boolean {
    return set.has(ALL) || (sessionKey !== null && set.has(sessionKey));
  }

  /** Adds what the store holds for this client (written by another gateway, or before a restart) to the live set. */
  async refresh(identityId: string, clientId: string): Promise<void> {
    const key = this.key(identityId, clientId);
    const saved = await this.store.getMeta(metaKey(identityId, clientId));
    if (!saved) return;
    try {
      const entries = JSON.parse(saved) as string[];
      let set = this.byClient.get(key);
      if (!set) this.byClient.set(key, (set = new Set()));
      for (const entry of entries) set.add(entry);
    } catch {
      // As above: only replay is lost until the agent subscribes again.
    }
  }

  /** No sessionKey subscribes to every session. */
  async add(identityId: string, clientId: string, sessionKey?: string): Promise<void> {
    const key = this.key(identityId, clientId);
    const entry = sessionKey ?? ALL;
    if (this.byClient.get(key)?.has(entry)) return;
    await this.refresh(identityId, clientId);
    let set = this.byClient.get(key);
    if (!set) this.byClient.set(key, (set = new Set()));
    set.add(entry);
    await this.store.setMeta(metaKey(identityId, clientId), JSON.stringify([...set]));
  }
}
