import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChannelRoute, ChannelSink } from './types.ts';

/** H6: Slack's signatures are accepted within five minutes of their timestamp. */
export const SLACK_SIGNATURE_WINDOW_S = 5 * 60;

/** `v0=` + HMAC-SHA256 of `v0:<timestamp>:<body>` with the signing secret. */
export function slackSignature(secret: string, timestamp: string, body: Buffer | string): string {
  return 'v0=' + createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest('hex');
}

/** H6: `X-Slack-Signature` checked (constant time, 5-minute window) before the body is read. */
export function verifySlack(req: IncomingMessage, body: Buffer, secret: string, nowMs = Date.now()): boolean {
  const timestamp = req.headers['x-slack-request-timestamp'];
  const signature = req.headers['x-slack-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SLACK_SIGNATURE_WINDOW_S) return false;
  const expected = Buffer.from(slackSignature(secret, timestamp, body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function reply(res: ServerResponse, status: number, body?: unknown): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) }).end(text);
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Slack delivers a message's `&`, `<` and `>` escaped; a reply `R&D` must match the option `R&D` (PT1). */
export function unescapeSlack(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** One piece of Slack's markup (`<target|label>`) as the person typed it: a link's words, a mention as `@…`, a channel as `#…`. */
function typedForm(inner: string): string {
  const bar = inner.indexOf('|');
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : inner.slice(bar + 1);
  if (target.startsWith('@')) return label ? `@${label.replace(/^@/, '')}` : target;
  if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
  if (/^!(here|channel|everyone)$/.test(target)) return `@${target.slice(1)}`;
  if (target.startsWith('!')) return label ?? target.slice(1);
  return linkForm(target.replace(/^mailto:/, ''), label);
}

/** A link without its scheme (`https://`, `mailto:`), to tell text Slack linked as typed from words linked to an address. */
const bareLink = (link: string) => link.replace(/^mailto:/i, '').replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');

/**
 * A link as the person wrote it: text Slack linked by itself stays as typed (`example.org`); words linked to another
 * address (`<https://x/pr/12|the PR>`) keep both, `the PR (https://x/pr/12)`, so the address is not lost.
 */
function linkForm(address: string, label: string | undefined): string {
  if (label === undefined || bareLink(label) === bareLink(address)) return label ?? address;
  return `${label} (${address})`;
}

/**
 * H2/H4: a message's text as its sender typed it. Slack wraps what it links (`ops@example.com` arrives as
 * `<mailto:ops@example.com|ops@example.com>`, a URL as `<https://…>`, a mention as `<@U0123>`); an answer or a message
 * carries what the person wrote, not that markup.
 */
export function slackMessageText(text: string): string {
  return unescapeSlack(text.replace(/<([^<>]*)>/g, (_, inner: string) => typedForm(inner)));
}

type SlackMessageEvent = { type?: string; subtype?: string; bot_id?: string; user?: string; channel?: string; text?: string; ts?: string; thread_ts?: string; client_msg_id?: string };
type SlackAction = { action_id?: string };
type SlackInteraction = {
  type?: string;
  user?: { id?: string };
  channel?: { id?: string };
  container?: { channel_id?: string; message_ts?: string };
  message?: { ts?: string };
  actions?: SlackAction[];
};

export type SlackReceiver = {
  sink: () => ChannelSink | null;
  secret: string;
  /** Tells one user something only they see (a refused press). */
  notify: (channel: string, user: string, text: string) => void;
  log: (line: string) => void;
};

/** H7: `POST /channels/slack/events` (with `url_verification`) and `POST /channels/slack/interactions`. */
export function slackRoutes(r: SlackReceiver): ChannelRoute[] {
  const verified = (req: IncomingMessage, body: Buffer, res: ServerResponse): boolean => {
    if (verifySlack(req, body, r.secret)) return true;
    r.log(`refused a request to ${req.url}: bad or missing X-Slack-Signature`);
    reply(res, 401, { ok: false, error: 'invalid signature' });
    return false;
  };
  const events: ChannelRoute = {
    path: '/channels/slack/events',
    handle(req, body, res) {
      if (!verified(req, body, res)) return;
      const payload = parseJson(body.toString('utf8'));
      if (!payload) return reply(res, 400, { ok: false, error: 'body must be JSON' });
      if (payload.type === 'url_verification') return reply(res, 200, { challenge: payload.challenge });
      // Slack wants its answer within 3 s: acknowledge first, then hand the message on.
      reply(res, 200, { ok: true });
      const ev = (payload.event ?? {}) as SlackMessageEvent;
      const sink = r.sink();
      if (payload.type !== 'event_callback' || ev.type !== 'message' || ev.subtype || ev.bot_id || !sink) return;
      if (!ev.user || !ev.channel || typeof ev.text !== 'string' || !ev.ts) return;
      // H4: a message in the thread under a question replies to that question.
      const thread = typeof ev.thread_ts === 'string' && ev.thread_ts !== ev.ts ? { replyTo: ev.thread_ts } : {};
      void sink.message({ conversation: ev.channel, user: ev.user, text: slackMessageText(ev.text), messageId: ev.client_msg_id ?? ev.ts, ...thread });
    },
  };
  const interactions: ChannelRoute = {
    path: '/channels/slack/interactions',
    handle(req, body, res) {
      if (!verified(req, body, res)) return;
      const raw = new URLSearchParams(body.toString('utf8')).get('payload');
      const payload = raw ? (parseJson(raw) as SlackInteraction | null) : null;
      if (!payload) return reply(res, 400, { ok: false, error: 'payload must be JSON' });
      reply(res, 200);
      const sink = r.sink();
      const action = payload.actions?.[0]?.action_id;
      const channel = payload.channel?.id ?? payload.container?.channel_id;
      const ref = payload.message?.ts ?? payload.container?.message_ts;
      const user = payload.user?.id;
      if (payload.type !== 'block_actions' || !sink || !action || !channel || !ref || !user) return;
      void sink.press({ conversation: channel, user, action, ref }).then((answer) => {
        if ((answer.refused || answer.held) && answer.notice) r.notify(channel, user, answer.notice);
      });
    },
  };
  return [events, interactions];
}
