import type { ServerResponse } from 'node:http';
import { slackSignature, unescapeSlack } from '../../gateway/channels/slack-webhooks.ts';
import { FakeHttp, fencedCode, json, type FakeCall } from './fake-http.ts';
import type { SeenMessage } from './channel-harness.ts';

type SlackElement = { type: string; text?: { text: string }; action_id?: string; url?: string };
type SlackBlock = { type: string; text?: { text: string }; elements?: SlackElement[] };
/** A message the bot posted, as the fake keeps it (chat.update changes it in place). */
export type SlackMessage = { ts: string; channel: string; text: string; blocks: SlackBlock[] };

/** A fake Slack Web API on loopback: `auth.test`, `chat.postMessage`, `chat.update`, `chat.postEphemeral`. */
export class FakeSlack {
  readonly http: FakeHttp;
  readonly messages: SlackMessage[] = [];
  readonly ephemeral: { channel: string; user: string; text: string }[] = [];
  private nextTs = 1;

  constructor(readonly token = 'xoxb-test-token') {
    this.http = new FakeHttp(
      (path) => path.split('/').pop() ?? '',
      (call, res) => this.handle(call, res),
      (f) => ({ headers: (f.retryAfterS !== undefined ? { 'retry-after': String(f.retryAfterS) } : {}) as Record<string, string>, body: { ok: false, error: f.status === 429 ? 'ratelimited' : 'internal_error' } }),
    );
  }

  static async start(): Promise<FakeSlack> {
    const fake = new FakeSlack();
    await fake.http.listen();
    return fake;
  }

  get apiRoot(): string {
    return `${this.http.origin}/api`;
  }

  private handle(call: FakeCall, res: ServerResponse): void {
    if (call.headers.authorization !== `Bearer ${this.token}`) return json(res, 200, { ok: false, error: 'invalid_auth' });
    const b = call.body as { channel?: string; text?: string; blocks?: SlackBlock[]; ts?: string; user?: string };
    switch (call.method) {
      case 'auth.test':
        return json(res, 200, { ok: true, user_id: 'UBOT', bot_id: 'BBOT', team_id: 'T1' });
      case 'chat.postMessage': {
        const message = { ts: `1700000000.${String(this.nextTs++).padStart(6, '0')}`, channel: String(b.channel), text: String(b.text ?? ''), blocks: b.blocks ?? [] };
        this.messages.push(message);
        return json(res, 200, { ok: true, channel: message.channel, ts: message.ts, message });
      }
      case 'chat.update': {
        const message = this.messages.find((m) => m.channel === b.channel && m.ts === b.ts);
        if (!message) return json(res, 200, { ok: false, error: 'message_not_found' });
        message.text = String(b.text ?? '');
        message.blocks = b.blocks ?? [];
        return json(res, 200, { ok: true, channel: message.channel, ts: message.ts });
      }
      case 'chat.postEphemeral':
        this.ephemeral.push({ channel: String(b.channel), user: String(b.user), text: String(b.text) });
        return json(res, 200, { ok: true, message_ts: '1' });
      default:
        return json(res, 200, { ok: false, error: 'unknown_method' });
    }
  }

  static buttons(m: SlackMessage): SlackElement[] {
    return m.blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

/** Posts to the gateway as Slack does: signed with the signing secret, or with `signature` when a test forges one. */
export async function slackPost(url: string, secret: string, body: string, type: string, signature?: string, timestampS = Math.floor(Date.now() / 1000)): Promise<Response> {
  const ts = String(timestampS);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': type, 'x-slack-request-timestamp': ts, 'x-slack-signature': signature ?? slackSignature(secret, ts, body) },
    body,
  });
}

/** The shared channel scenarios, played on Slack: everyone writes in one channel. */
export class SlackDriver {
  readonly name = 'slack' as const;
  readonly ids = { alice: 'U0123ABC', bob: 'U0222BBB', carol: 'U0333CCC' };
  readonly channel = 'C0CHANNEL';
  readonly otherConversation = 'C0ELSEWHERE';
  readonly secret = 'slack-signing-secret';
  fake!: FakeSlack;
  gatewayUrl = '';
  private nextMessage = 1;

  get api() {
    return { http: this.fake.http, post: 'chat.postMessage', edit: 'chat.update' };
  }

  async start(): Promise<void> {
    this.fake = await FakeSlack.start();
  }

  attach(gatewayUrl: string): void {
    this.gatewayUrl = gatewayUrl;
  }

  config(users: Record<string, string>): Record<string, unknown> {
    return { botToken: this.fake.token, signingSecret: this.secret, users, apiRoot: this.fake.apiRoot };
  }

  /** `replyTo`: the user writes in the thread under that message. */
  async userSays(user: string, text: string, replyTo?: { ref: string }): Promise<void> {
    const ts = `1700000100.${String(this.nextMessage++).padStart(6, '0')}`;
    // Slack escapes a message's &, < and > before it delivers it.
    const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const event = { type: 'event_callback', event_id: `Ev${ts}`, event: { type: 'message', channel: this.channel, user, text: escaped, ts, ...(replyTo ? { thread_ts: replyTo.ref } : {}) } };
    const res = await slackPost(`${this.gatewayUrl}/channels/slack/events`, this.secret, JSON.stringify(event), 'application/json');
    if (res.status !== 200) throw new Error(`events answered ${res.status}`);
  }

  interaction(user: string, ts: string, actionId: string, channel = this.channel): string {
    const payload = { type: 'block_actions', user: { id: user }, channel: { id: channel }, container: { type: 'message', message_ts: ts, channel_id: channel }, message: { ts }, actions: [{ type: 'button', action_id: actionId, value: actionId }] };
    return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  }

  async press(user: string, seen: { ref: string }, label: string, from?: string): Promise<void> {
    const message = this.fake.messages.find((m) => m.ts === seen.ref);
    const button = message && FakeSlack.buttons(message).find((b) => b.text?.text === label);
    if (!button?.action_id) throw new Error(`no button "${label}" on message ${seen.ref}`);
    const res = await slackPost(`${this.gatewayUrl}/channels/slack/interactions`, this.secret, this.interaction(user, seen.ref, button.action_id, from), 'application/x-www-form-urlencoded');
    if (res.status !== 200) throw new Error(`interactions answered ${res.status}`);
  }

  notices(): string[] {
    return this.fake.ephemeral.map((e) => e.text);
  }

  messages(): SeenMessage[] {
    return this.fake.messages.map((m) => {
      // As Slack shows it: its escaped & < > read back.
      const fenced = m.blocks.map((b) => (b.type === 'section' ? fencedCode(b.text?.text ?? '') : undefined)).find((c) => c !== undefined);
      const code = fenced === undefined ? undefined : unescapeSlack(fenced);
      return { ref: m.ts, text: m.text, buttons: FakeSlack.buttons(m).map((b) => b.text?.text ?? ''), ...(code !== undefined ? { code } : {}) };
    });
  }

  close(): Promise<void> {
    return this.fake.close();
  }
}
