import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SeenMessage } from './channel-harness.ts';
import { FakeHttp, fencedCode, json, type FakeCall } from './fake-http.ts';

type DiscordButton = { type: 2; style: number; label: string; custom_id?: string; url?: string };
/** A message the bot posted, as the fake keeps it (PATCH changes it in place). */
export type DiscordMessage = { id: string; channel_id: string; content: string; components: { type: 1; components: DiscordButton[] }[] };

const BOT = { id: '900000000000000001', username: 'askdock', discriminator: '0', bot: true, global_name: null, avatar: null };

/**
 * A fake Discord: the REST API (`GET /gateway/bot`, channel messages, interaction follow-ups) and a Gateway
 * WebSocket (HELLO, IDENTIFY -> READY, heartbeats, MESSAGE_CREATE), both on loopback.
 */
export class FakeDiscord {
  readonly http: FakeHttp;
  readonly messages: DiscordMessage[] = [];
  readonly followUps: { token: string; content: string; flags?: number }[] = [];
  readonly identifies: unknown[] = [];
  private wss: WebSocketServer | null = null;
  private sockets = new Set<WebSocket>();
  private seq = 1;
  private nextId = 1_000;

  constructor(readonly token = 'discord-bot-token') {
    this.http = new FakeHttp(
      (path, method) => `${method} ${path.replace(/^\/api\/v\d+/, '').replace(/\/\d+/g, '/:id').replace(/\/webhooks\/:id\/[^/]+/, '/webhooks/:id/:token')}`,
      (call, res) => this.handle(call, res),
      (f) => ({
        headers: (f.retryAfterS !== undefined ? { 'retry-after': String(f.retryAfterS), 'x-ratelimit-scope': 'user' } : {}) as Record<string, string>,
        body: f.status === 429 ? { message: 'You are being rate limited.', retry_after: f.retryAfterS, global: false } : { message: '500: Internal Server Error', code: 0 },
      }),
    );
  }

  static async start(): Promise<FakeDiscord> {
    const fake = new FakeDiscord();
    await fake.http.listen();
    fake.wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((ok) => fake.wss!.once('listening', () => ok()));
    fake.wss.on('connection', (ws) => fake.onSocket(ws));
    return fake;
  }

  get apiRoot(): string {
    return `${this.http.origin}/api/v10`;
  }

  get gatewayUrl(): string {
    return `ws://127.0.0.1:${(this.wss!.address() as AddressInfo).port}`;
  }

  private handle(call: FakeCall, res: ServerResponse): void {
    const isWebhook = call.method.startsWith('POST /webhooks/');
    if (!isWebhook && call.headers.authorization !== `Bot ${this.token}`) return json(res, 401, { message: '401: Unauthorized', code: 0 });
    const b = call.body as { content?: string; components?: DiscordMessage['components']; flags?: number };
    const ids = [...call.path.matchAll(/\/(\d+)/g)].map((m) => m[1]);
    switch (call.method) {
      case 'GET /gateway/bot':
        return json(res, 200, { url: this.gatewayUrl, shards: 1, session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 } });
      case 'POST /channels/:id/messages': {
        const message: DiscordMessage = { id: String(this.nextId++), channel_id: ids[ids.length - 1], content: String(b.content ?? ''), components: b.components ?? [] };
        this.messages.push(message);
        return json(res, 200, { ...message, author: BOT, type: 0 });
      }
      case 'PATCH /channels/:id/messages/:id': {
        const message = this.messages.find((m) => m.channel_id === ids[ids.length - 2] && m.id === ids[ids.length - 1]);
        if (!message) return json(res, 404, { message: 'Unknown Message', code: 10008 });
        message.content = String(b.content ?? message.content);
        message.components = b.components ?? message.components;
        return json(res, 200, { ...message, author: BOT, type: 0 });
      }
      default:
        if (isWebhook) {
          this.followUps.push({ token: call.path.split('/').pop() ?? '', content: String(b.content), ...(b.flags !== undefined ? { flags: b.flags } : {}) });
          return json(res, 200, { id: String(this.nextId++), content: b.content });
        }
        return json(res, 404, { message: '404: Not Found', code: 0 });
    }
  }

  private send(ws: WebSocket, payload: object): void {
    ws.send(JSON.stringify(payload));
  }

  private onSocket(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on('close', () => this.sockets.delete(ws));
    this.send(ws, { op: 10, d: { heartbeat_interval: 41_250 }, s: null, t: null });
    ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString()) as { op: number; d: unknown };
      if (frame.op === 1) this.send(ws, { op: 11, d: null, s: null, t: null });
      if (frame.op === 2) {
        this.identifies.push(frame.d);
        this.dispatch('READY', { v: 10, user: BOT, guilds: [], session_id: 'fake-session', resume_gateway_url: this.gatewayUrl, shard: [0, 1], application: { id: '1', flags: 0 } }, ws);
      }
    });
  }

  private dispatch(t: string, d: unknown, only?: WebSocket): void {
    const frame = { op: 0, t, s: this.seq++, d };
    for (const ws of only ? [only] : this.sockets) this.send(ws, frame);
  }

  /** A user writes in a guild text channel (replying to message `replyTo`); it arrives over the Gateway as MESSAGE_CREATE. */
  userSays(user: string, channelId: string, content: string, replyTo?: string): void {
    const id = String(this.nextId++);
    this.dispatch('MESSAGE_CREATE', {
      id,
      channel_id: channelId,
      guild_id: '700000000000000001',
      author: { id: user, username: `user${user.slice(-4)}`, discriminator: '0', global_name: null, avatar: null },
      content,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      pinned: false,
      type: replyTo ? 19 : 0,
      ...(replyTo ? { message_reference: { type: 0, message_id: replyTo, channel_id: channelId } } : {}),
    });
  }

  static buttons(m: DiscordMessage): DiscordButton[] {
    return m.components.flatMap((row) => row.components);
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    await new Promise<void>((done) => (this.wss ? this.wss.close(() => done()) : done()));
    await this.http.close();
  }
}

/** Signs as Discord does: Ed25519 over timestamp + body. */
export function discordSign(key: KeyObject, timestamp: string, body: string): string {
  return sign(null, Buffer.from(timestamp + body), key).toString('hex');
}

/** The shared channel scenarios, played on Discord: everyone writes in one guild channel. */
export class DiscordDriver {
  readonly name = 'discord' as const;
  readonly ids = { alice: '81234567890', bob: '81234567891', carol: '81234567892' };
  readonly channel = '600000000000000001';
  readonly otherConversation = '600000000000000002';
  readonly applicationId = '500000000000000001';
  readonly keys = generateKeyPairSync('ed25519');
  fake!: FakeDiscord;
  gatewayUrl = '';
  private nextInteraction = 1;

  get publicKeyHex(): string {
    return this.keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
  }

  get api() {
    return { http: this.fake.http, post: 'POST /channels/:id/messages', edit: 'PATCH /channels/:id/messages/:id' };
  }

  async start(): Promise<void> {
    this.fake = await FakeDiscord.start();
  }

  attach(gatewayUrl: string): void {
    this.gatewayUrl = gatewayUrl;
  }

  config(users: Record<string, string>): Record<string, unknown> {
    return { botToken: this.fake.token, applicationId: this.applicationId, publicKey: this.publicKeyHex, users, apiRoot: this.fake.apiRoot };
  }

  async userSays(user: string, text: string, replyTo?: { ref: string }): Promise<void> {
    this.fake.userSays(user, this.channel, text, replyTo?.ref);
  }

  interaction(user: string, messageId: string, customId: string, channel = this.channel): string {
    const n = this.nextInteraction++;
    return JSON.stringify({
      id: `90000${n}`,
      application_id: this.applicationId,
      type: 3,
      token: `interaction-token-${n}`,
      version: 1,
      channel_id: channel,
      guild_id: '700000000000000001',
      member: { user: { id: user, username: 'someone' } },
      message: { id: messageId, channel_id: channel },
      data: { custom_id: customId, component_type: 2 },
    });
  }

  /** POSTs to the gateway's interactions endpoint, signed with the application's key unless a test forges it. */
  async post(body: string, opts: { key?: KeyObject; signature?: string; timestamp?: string } = {}): Promise<Response> {
    const timestamp = opts.timestamp ?? String(Math.floor(Date.now() / 1000));
    const signature = opts.signature ?? discordSign(opts.key ?? this.keys.privateKey, timestamp, body);
    return fetch(`${this.gatewayUrl}/channels/discord/interactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp },
      body,
    });
  }

  async press(user: string, seen: { ref: string }, label: string, from?: string): Promise<void> {
    const message = this.fake.messages.find((m) => m.id === seen.ref);
    const button = message && FakeDiscord.buttons(message).find((b) => b.label === label);
    if (!button?.custom_id) throw new Error(`no button "${label}" on message ${seen.ref}`);
    const res = await this.post(this.interaction(user, seen.ref, button.custom_id, from));
    if (res.status !== 200) throw new Error(`interactions answered ${res.status}`);
  }

  notices(): string[] {
    return this.fake.followUps.map((f) => f.content);
  }

  messages(): SeenMessage[] {
    return this.fake.messages.map((m) => {
      const code = fencedCode(m.content);
      return { ref: m.id, text: m.content, buttons: FakeDiscord.buttons(m).map((b) => b.label), ...(code !== undefined ? { code } : {}) };
    });
  }

  close(): Promise<void> {
    return this.fake.close();
  }
}
