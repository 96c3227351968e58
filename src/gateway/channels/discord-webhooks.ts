import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChannelRoute, ChannelSink } from './types.ts';

// An Ed25519 public key in SPKI DER is this fixed prefix and the 32 key bytes.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export function discordPublicKey(hex: string): KeyObject {
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });
}

/** A signed interaction is taken within five minutes of its timestamp, as Slack's are: a captured press cannot be sent again later. */
export const DISCORD_SIGNATURE_WINDOW_S = 5 * 60;

/** H6: `X-Signature-Ed25519` over timestamp + body, checked before the body is read. */
export function verifyDiscord(req: IncomingMessage, body: Buffer, key: KeyObject, nowMs = Date.now()): boolean {
  const signature = req.headers['x-signature-ed25519'];
  const timestamp = req.headers['x-signature-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string' || !/^[0-9a-fA-F]{128}$/.test(signature)) return false;
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > DISCORD_SIGNATURE_WINDOW_S) return false;
  try {
    return verify(null, Buffer.concat([Buffer.from(timestamp, 'utf8'), body]), key, Buffer.from(signature, 'hex'));
  } catch {
    return false;
  }
}

/** Interaction and response types this endpoint uses (Discord API v10). */
export const InteractionType = { Ping: 1, MessageComponent: 3 } as const;
export const ResponseType = { Pong: 1, DeferredUpdateMessage: 6 } as const;

type Interaction = {
  type?: number;
  token?: string;
  channel_id?: string;
  member?: { user?: { id?: string } };
  user?: { id?: string };
  message?: { id?: string; channel_id?: string };
  data?: { custom_id?: string };
};

export type DiscordReceiver = {
  sink: () => ChannelSink | null;
  publicKey: KeyObject;
  /** A follow-up only the presser sees (a refused press), through the interaction's token. */
  notify: (interactionToken: string, text: string) => void;
  log: (line: string) => void;
};

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) }).end(text);
}

/** H7: `POST /channels/discord/interactions`: PING answers PONG; a button press is acknowledged, then answered. */
export function discordRoutes(r: DiscordReceiver): ChannelRoute[] {
  return [
    {
      path: '/channels/discord/interactions',
      handle(req, body, res) {
        if (!verifyDiscord(req, body, r.publicKey)) {
          r.log('refused an interaction: bad, missing or stale X-Signature-Ed25519');
          return reply(res, 401, { error: 'invalid request signature' });
        }
        let interaction: Interaction;
        try {
          interaction = JSON.parse(body.toString('utf8')) as Interaction;
        } catch {
          return reply(res, 400, { error: 'body must be JSON' });
        }
        // S5: `null` or a number parses too; only an object is an interaction.
        if (typeof interaction !== 'object' || interaction === null || Array.isArray(interaction)) return reply(res, 400, { error: 'body must be a JSON object' });
        if (interaction.type === InteractionType.Ping) return reply(res, 200, { type: ResponseType.Pong });
        // Acknowledged without a change: the outcome arrives as an edit once the answer is saved (H5).
        reply(res, 200, { type: ResponseType.DeferredUpdateMessage });
        const sink = r.sink();
        const user = interaction.member?.user?.id ?? interaction.user?.id;
        const conversation = interaction.channel_id ?? interaction.message?.channel_id;
        const ref = interaction.message?.id;
        const action = interaction.data?.custom_id;
        if (interaction.type !== InteractionType.MessageComponent || !sink || !user || !conversation || !ref || !action) return;
        void sink.press({ conversation, user, action, ref }).then((answer) => {
          if ((answer.refused || answer.held) && answer.notice && interaction.token) r.notify(interaction.token, answer.notice);
        });
      },
    },
  ];
}
