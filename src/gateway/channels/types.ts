import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChannelName } from './registry.ts';

/** One button under a posted question. `action` comes back in the press. */
export type PostButton =
  | { kind: 'option'; label: string; action: string }
  | { kind: 'skip'; label: string; action: string }
  | { kind: 'other'; label: string; action: string }
  /** E4: "I'm on it" under a routed question. */
  | { kind: 'ack'; label: string; action: string }
  | { kind: 'link'; label: string; url: string };

/** What a channel posts or edits: text, and the buttons beneath it (none once resolved). */
export type Post = {
  text: string;
  buttons: PostButton[];
  /** Telegram: ask for a reply to this message (after `Other…`). */
  forceReply?: boolean;
  /** X2: preformatted text shown as a code block under `text` (a question's detail, already cut to fit). */
  pre?: string;
};

/** A message from a platform user, as the adapter read it. */
export type Inbound = {
  conversation: string;
  /** The platform's user id, looked up in the channel's `users` map. */
  user: string;
  text: string;
  /** Unique per conversation: makes the chat.send idempotency key, so a redelivered update is sent once. */
  messageId: string;
  /** A title for the session the conversation's first message makes. */
  conversationTitle?: string;
  /** The bot message this one replies to (Telegram's reply, as to the Force Reply after `Other…`; a Slack thread; Discord's reply). */
  replyTo?: string;
};

/** A button press: `action` as posted, `ref` the message the button sits under. */
export type Press = { conversation: string; user: string; action: string; ref: string };

/** What the user who pressed is told (Telegram's callback answer; an ephemeral note elsewhere), if anything. */
export type PressReply = {
  notice?: string;
  /** Nothing was answered: the note explains why. */
  refused?: boolean;
  /** E5: an Allow held short of a quorum: no edit follows (the question stays open), so the note is said as a refusal's is. */
  held?: boolean;
  /** H1: the presser is not mapped to an identity: nothing is answered, and nothing is said to them beyond what the platform requires. */
  ignored?: boolean;
};

/** What the gateway offers an adapter: every inbound message and press goes through here. */
export interface ChannelSink {
  message(m: Inbound): Promise<void>;
  press(p: Press): Promise<PressReply>;
}

/** A webhook route on the gateway's HTTP server (Slack events and interactions, Discord interactions). */
export type ChannelRoute = {
  path: string;
  handle(req: IncomingMessage, body: Buffer, res: ServerResponse): void | Promise<void>;
};

/** A platform API failure: `retryAfterMs` when the platform said when (429), `permanent` when retrying cannot help. */
export class ChannelApiError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'ChannelApiError';
  }
}

/** One platform, seen from the gateway: connect, post, edit, and the webhook routes it needs. */
export interface ChannelAdapter {
  readonly name: ChannelName;
  readonly routes: ChannelRoute[];
  /** Connects (and, for Telegram and Discord, starts reading); resolves once connected. */
  start(sink: ChannelSink): Promise<void>;
  /**
   * Several gateways on one database: webhook deliveries reach whichever gateway the load balancer picked, so every
   * gateway hands them to `sink`, while only the one holding the channel's lease is started (polls, posts).
   */
  acceptWebhooks?(sink: ChannelSink): void;
  stop(): Promise<void>;
  /** The most text one message may carry, as `measureText` counts it (longer texts are posted in parts). */
  readonly textLimit: number;
  /** How the platform counts a text against `textLimit` (by default its length). */
  measureText?(text: string): number;
  /** Posts into a conversation; resolves to the platform's message reference, for later edits. */
  post(conversation: string, post: Post): Promise<string>;
  edit(conversation: string, ref: string, post: Post): Promise<void>;
}
