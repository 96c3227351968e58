import type { Store } from './store/types.ts';

const META_KEY = 'agent.subscriptions';
const ALL = '*';

/**
 * C6: which sessions each agent client listens to. Kept per (identity, client id) and saved, so a reconnect
 * or a gateway restart replays (R2) the user messages it missed before the agent has subscribed again.
 */
export class AgentSubscriptions {
  private readonly byClient = new Map<string, Set<string>>();

  constructor(private readonly store: Store) {
    const saved = store.getMeta(META_KEY);
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

  /** No sessionKey subscribes to every session. */
  add(identityId: string, clientId: string, sessionKey?: string): void {
    const key = this.key(identityId, clientId);
    let set = this.byClient.get(key);
    if (!set) this.byClient.set(key, (set = new Set()));
    const entry = sessionKey ?? ALL;
    if (set.has(entry)) return;
    set.add(entry);
    this.store.setMeta(META_KEY, JSON.stringify(Object.fromEntries([...this.byClient].map(([k, v]) => [k, [...v]]))));
  }
}
