import { DefaultRestOptions, DiscordAPIError, RateLimitError, REST, type RESTOptions } from '@discordjs/rest';
import { WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import {
  GatewayDispatchEvents,
  GatewayIntentBits,
  Routes,
  type APIActionRowComponent,
  type APIButtonComponent,
  type GatewayDispatchPayload,
} from 'discord-api-types/v10';
import type { DiscordConfig } from './registry.ts';
import { discordPublicKey, discordRoutes } from './discord-webhooks.ts';
import { withCodeBlock } from './render.ts';
import { ChannelApiError, type ChannelAdapter, type ChannelRoute, type ChannelSink, type Post } from './types.ts';

export const DISCORD_API_ROOT = 'https://discord.com/api/v10';

/** discord.js takes the API root without its version suffix, and the version apart. */
export function splitApiRoot(apiRoot: string): { api: string; version: string } {
  const m = /^(.*?)\/v(\d+)$/.exec(apiRoot);
  return m ? { api: m[1], version: m[2] } : { api: apiRoot, version: '10' };
}

/**
 * H7: `apiRoot` is the address the requests go to, as given (as Telegram's and Slack's are). A root with a version
 * suffix is the real API's form; one without it (a stand-in at `http://127.0.0.1:P`) gets no version added to its paths.
 */
export function discordRest(apiRoot: string): REST {
  const { api, version } = splitApiRoot(apiRoot);
  const asGiven = api === apiRoot;
  return new REST({
    api,
    version,
    // Retries and rate limits are the channel outbox's: a 429 comes back as RateLimitError with its retry_after.
    retries: 0,
    rejectOnRateLimit: () => true,
    ...(asGiven
      ? { makeRequest: ((url, init) => DefaultRestOptions.makeRequest(url.replace(`${api}/v${version}/`, `${api}/`), init)) satisfies RESTOptions['makeRequest'] }
      : {}),
  });
}

const ButtonStyle = { Primary: 1, Secondary: 2, Link: 5 } as const;

/** An `@everyone` or `<@id>` in what an agent or a person wrote shows as text and pings nobody, in a post, an edit or a follow-up. */
const NO_MENTIONS = { parse: [] };

/**
 * A masked link (`[the docs](https://…)`) in what an agent or a person wrote stays text, so no post shows words in place
 * of the address they lead to; a zero-width space between `]` and `(` breaks it and reads the same.
 */
export const unmasked = (text: string): string => text.replaceAll('](', ']\u200b(');

/** H3: action rows of at most five buttons: the options, then Skip (then any link). */
export function discordComponents(post: Post): APIActionRowComponent<APIButtonComponent>[] {
  const buttons: APIButtonComponent[] = post.buttons.map((b) =>
    b.kind === 'link'
      ? { type: 2, style: ButtonStyle.Link, label: b.label, url: b.url }
      : { type: 2, style: b.kind === 'option' ? ButtonStyle.Primary : ButtonStyle.Secondary, label: b.label, custom_id: b.action },
  );
  const rows: APIActionRowComponent<APIButtonComponent>[] = [];
  for (let i = 0; i < buttons.length; i += 5) rows.push({ type: 1, components: buttons.slice(i, i + 5) });
  return rows;
}

function apiError(err: unknown): ChannelApiError {
  if (err instanceof RateLimitError) return new ChannelApiError('rate limited', Math.max(err.retryAfter, 1));
  if (err instanceof DiscordAPIError) return new ChannelApiError(err.message, undefined, err.status >= 400 && err.status < 500);
  return new ChannelApiError((err as Error)?.message ?? String(err));
}

/**
 * Discord through discord.js: messages over the Discord Gateway (its URL from `GET /gateway/bot`), posts and
 * edits over REST, button presses at the signed interactions endpoint (H6, H7).
 */
export class DiscordAdapter implements ChannelAdapter {
  readonly name = 'discord' as const;
  /** A message's `content` cap, counted after `unmasked`. */
  readonly textLimit = 2000;
  measureText(text: string): number {
    return unmasked(text).length;
  }
  readonly routes: ChannelRoute[];
  private readonly rest: REST;
  private gateway: WebSocketManager | null = null;
  private sink: ChannelSink | null = null;
  private botUserId: string | undefined;

  constructor(
    private readonly config: Pick<DiscordConfig, 'botToken' | 'applicationId' | 'publicKey' | 'apiRoot'>,
    private readonly log: (line: string) => void,
  ) {
    this.rest = discordRest(config.apiRoot ?? DISCORD_API_ROOT).setToken(config.botToken);
    this.routes = discordRoutes({
      sink: () => this.sink,
      publicKey: discordPublicKey(config.publicKey),
      log,
      notify: (token, content) => {
        this.rest
          .post(Routes.webhook(config.applicationId, token), { body: { content, flags: 64, allowed_mentions: NO_MENTIONS }, auth: false })
          .catch((err: unknown) => log(`a follow-up failed: ${apiError(err).message}`));
      },
    });
  }

  async start(sink: ChannelSink): Promise<void> {
    this.sink = sink;
    const gateway = new WebSocketManager({
      token: this.config.botToken,
      intents: GatewayIntentBits.GuildMessages | GatewayIntentBits.DirectMessages | GatewayIntentBits.MessageContent,
      rest: this.rest,
    });
    this.gateway = gateway;
    gateway.on(WebSocketShardEvents.Dispatch, ({ data }) => this.onDispatch(data));
    gateway.on(WebSocketShardEvents.Error, ({ error }) => this.log(`gateway error: ${error.message}`));
    // Resolves once the shard is READY.
    await gateway.connect();
  }

  private onDispatch(data: GatewayDispatchPayload): void {
    if (data.t === GatewayDispatchEvents.Ready) this.botUserId = data.d.user.id;
    if (data.t !== GatewayDispatchEvents.MessageCreate) return;
    const m = data.d;
    if (m.author.bot || m.author.id === this.botUserId || !m.content || !this.sink) return;
    const replyTo = m.message_reference?.message_id;
    void this.sink.message({ conversation: m.channel_id, user: m.author.id, text: m.content, messageId: m.id, ...(replyTo ? { replyTo } : {}) });
  }

  acceptWebhooks(sink: ChannelSink): void {
    this.sink = sink;
  }

  async stop(): Promise<void> {
    this.sink = null;
    const gateway = this.gateway;
    this.gateway = null;
    if (gateway) await gateway.destroy();
  }

  async post(conversation: string, post: Post): Promise<string> {
    try {
      const body = { content: withCodeBlock(unmasked(post.text), post.pre), components: discordComponents(post), allowed_mentions: NO_MENTIONS };
      const sent = (await this.rest.post(Routes.channelMessages(conversation), { body })) as { id: string };
      return sent.id;
    } catch (err) {
      throw apiError(err);
    }
  }

  async edit(conversation: string, ref: string, post: Post): Promise<void> {
    try {
      await this.rest.patch(Routes.channelMessage(conversation, ref), { body: { content: unmasked(post.text), components: discordComponents(post), allowed_mentions: NO_MENTIONS } });
    } catch (err) {
      throw apiError(err);
    }
  }
}
