import type { GatewayClient } from '../client/client.ts';
import type { ChatMessage, HelloOk } from '../protocol/index.ts';
import { terminalLine } from '../lib/terminal-text.ts';
import { readBack, sessionsToReadBack, visibleSessions } from './sdk-missed.ts';

export type UserMessage = ChatMessage & { role: 'user' };

const warn = (text: string) => process.stderr.write(`askdock agent: ${terminalLine(text)}\n`);

/** How many user message ids are remembered so that a replay after a resume hands none over twice. */
const SEEN_LIMIT = 5000;

/**
 * C6: the agent's user-message handlers, per session ('' for every session it may serve), subscribed again on each
 * connection. R2: a reconnect the gateway could not replay (`resumed:false`) is caught up from chat.history, and the
 * live messages that arrive meanwhile wait, so every user message is handed over once and in order.
 */
export class UserMessages {
  private readonly subscriptions = new Map<string, Set<(m: UserMessage) => void>>();
  private readonly seen = new Set<string>();
  private readonly offHello: () => void;
  private readonly offChat: () => void;
  /** The seq after which user messages may have been missed, until they are read back. */
  private owed: number | undefined;
  /** When the newest message the agent saw was made (gateway time): sessions quiet since then missed nothing. */
  private lastSeenAtMs: number | undefined;
  /** `lastSeenAtMs` as it was when the messages now owed began to be missed. */
  private owedSinceMs: number | undefined;
  /** Live user messages held while reading back; null when not reading back. */
  private held: ChatMessage[] | null = null;
  /** Each connection's read-back gets a number: only the newest one hands over what it read. */
  private readBacks = 0;

  constructor(private readonly client: GatewayClient) {
    this.offHello = client.onHello((hello, { resumeFrom }) => void this.connected(hello, resumeFrom));
    this.offChat = client.on('chat', (payload) => {
      this.lastSeenAtMs = Math.max(this.lastSeenAtMs ?? 0, payload.message.createdAtMs);
      if (payload.message.role !== 'user' || payload.state !== 'final') return;
      if (this.held) this.held.push(payload.message);
      else this.deliver(payload.message);
    });
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

  /** A fresh connection has no subscriptions: subscribe again for every handler registered, then read back what was not replayed. */
  private async connected(hello: HelloOk, resumeFrom: number | undefined): Promise<void> {
    if (!hello.resumed && resumeFrom !== undefined && this.subscriptions.size > 0) {
      if (this.owed === undefined) this.owedSinceMs = this.lastSeenAtMs;
      this.owed = Math.min(this.owed ?? resumeFrom, resumeFrom);
    }
    const after = this.owed;
    if (after !== undefined) this.held ??= [];
    const run = ++this.readBacks;
    // Subscribed first: what arrives from then on comes live, so the history read after it misses nothing.
    await Promise.allSettled([...this.subscriptions.keys()].map((key) => this.subscribe(key)));
    if (after === undefined) return;
    let found: ChatMessage[];
    try {
      const keys = sessionsToReadBack(this.subscriptions.keys(), await visibleSessions(this.client, hello), this.owedSinceMs);
      const read = await readBack(this.client, keys, after);
      found = read.found;
      if (read.failed.length > 0) {
        if (run !== this.readBacks || this.client.state.status !== 'connected') return;
        const which = read.failed.map((f) => `${f.key} (${String(f.reason)})`).join(', ');
        warn(`could not read back the user messages missed while away in ${which}`);
      }
    } catch (err) {
      if (run !== this.readBacks) return;
      // A dropped connection tries again on the next hello; anything else hands over what is held and gives up.
      if (this.client.state.status !== 'connected') return;
      warn(`could not read back the user messages missed while away: ${String(err)}`);
      found = [];
    }
    if (run !== this.readBacks) return;
    const held = this.held ?? [];
    this.owed = undefined;
    this.owedSinceMs = undefined;
    this.held = null;
    for (const m of [...found, ...held].sort((a, b) => a.seq - b.seq)) this.deliver(m);
  }

  private deliver(message: ChatMessage) {
    // A resumed connection replays events, and a read-back may overlap live ones: each user message is handed over once.
    if (this.seen.has(message.id)) return;
    this.seen.add(message.id);
    if (this.seen.size > SEEN_LIMIT) this.seen.delete(this.seen.values().next().value as string);
    const handlers = [...(this.subscriptions.get(message.sessionKey) ?? []), ...(this.subscriptions.get('') ?? [])];
    for (const h of handlers) {
      try {
        h(message as UserMessage);
      } catch (err) {
        warn(`a user-message handler threw: ${String(err)}`);
      }
    }
  }
}
