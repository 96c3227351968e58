import type { GatewayClient } from '../client/client.ts';
import type { ChatMessage } from '../protocol/index.ts';

export type UserMessage = ChatMessage & { role: 'user' };

/** How many user message ids are remembered so that a replay after a resume hands none over twice. */
const SEEN_LIMIT = 5000;

/** C6: the agent's user-message handlers, per session ('' for every session it may serve), subscribed again on each connection. */
export class UserMessages {
  private readonly subscriptions = new Map<string, Set<(m: UserMessage) => void>>();
  private readonly seen = new Set<string>();
  private readonly offHello: () => void;
  private readonly offChat: () => void;

  constructor(private readonly client: GatewayClient) {
    // A fresh connection has no subscriptions: subscribe again for every handler registered.
    this.offHello = client.onHello(() => {
      for (const key of this.subscriptions.keys()) this.subscribe(key).catch(() => undefined);
    });
    this.offChat = client.on('chat', (payload) => this.dispatch(payload.message, payload.state));
  }

  /** Resolves once subscribed; the returned function unsubscribes locally. */
  async add(handler: (message: UserMessage) => void, sessionKey = ''): Promise<() => void> {
    let set = this.subscriptions.get(sessionKey);
    const first = !set;
    if (!set) this.subscriptions.set(sessionKey, (set = new Set()));
    set.add(handler);
    if (first) {
      try {
        await this.subscribe(sessionKey);
      } catch (err) {
        this.subscriptions.delete(sessionKey);
        throw err;
      }
    }
    return () => {
      set.delete(handler);
    };
  }

  close(): void {
    this.offHello();
    this.offChat();
  }

  private async subscribe(key: string): Promise<void> {
    await this.client.request('agent.subscribe', key ? { sessionKey: key } : {});
  }

  private dispatch(message: ChatMessage, state: 'delta' | 'final') {
    if (message.role !== 'user' || state !== 'final') return;
    // A resumed connection replays events; each user message is handed over once.
    if (this.seen.has(message.id)) return;
    this.seen.add(message.id);
    if (this.seen.size > SEEN_LIMIT) this.seen.delete(this.seen.values().next().value as string);
    const handlers = [...(this.subscriptions.get(message.sessionKey) ?? []), ...(this.subscriptions.get('') ?? [])];
    for (const h of handlers) {
      try {
        h(message as UserMessage);
      } catch (err) {
        process.stderr.write(`askdock agent: a user-message handler threw: ${String(err)}\n`);
      }
    }
  }
}
