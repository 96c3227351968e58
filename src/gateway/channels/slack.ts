import { ErrorCode, LogLevel, WebClient, type Block, type KnownBlock } from '@slack/web-api';
import type { SlackConfig } from './registry.ts';
import { withCodeBlock } from './render.ts';
import { slackRoutes } from './slack-webhooks.ts';
import { ChannelApiError, type ChannelAdapter, type ChannelRoute, type ChannelSink, type Post } from './types.ts';

export const SLACK_API_ROOT = 'https://slack.com/api';

/** Slack's mrkdwn treats these three as markup. */
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** H3: the text as a section, and the buttons (the options, then Skip, then any link) as one `actions` block. */
export function slackBlocks(post: Post): (Block | KnownBlock)[] {
  const blocks: (Block | KnownBlock)[] = [];
  if (post.text) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: escape(post.text) } });
  // X2: the detail as a code block of its own section.
  if (post.pre !== undefined) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: escape(withCodeBlock('', post.pre)) } });
  if (post.buttons.length === 0) return blocks;
  const elements = post.buttons.map((b, i) =>
    b.kind === 'link'
      ? { type: 'button' as const, text: { type: 'plain_text' as const, text: b.label }, url: b.url, action_id: `link-${i}` }
      : { type: 'button' as const, text: { type: 'plain_text' as const, text: b.label }, action_id: b.action, value: b.action },
  );
  blocks.push({ type: 'actions', elements });
  return blocks;
}

/** Slack's failures as ChannelApiError: rate limits carry Retry-After; platform refusals (`channel_not_found`…) are permanent. */
function apiError(err: unknown): ChannelApiError {
  const e = err as { code?: string; retryAfter?: number; statusCode?: number; data?: { error?: string }; message?: string };
  if (e.code === ErrorCode.RateLimitedError) return new ChannelApiError('rate limited', (e.retryAfter ?? 1) * 1000);
  if (e.code === ErrorCode.PlatformError) return new ChannelApiError(e.data?.error ?? 'refused', undefined, true);
  if (e.code === ErrorCode.HTTPError && e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500)
    return new ChannelApiError(`HTTP ${e.statusCode}`, undefined, true);
  return new ChannelApiError(e.message ?? String(err));
}

/** Slack through @slack/web-api: posts and edits with the Web API, events and presses from signed webhooks (H6, H7). */
export class SlackAdapter implements ChannelAdapter {
  readonly name = 'slack' as const;
  /** A section block's text cap, counted after escaping. */
  readonly textLimit = 3000;
  measureText(text: string): number {
    return escape(text).length;
  }
  readonly routes: ChannelRoute[];
  private readonly client: WebClient;
  private sink: ChannelSink | null = null;

  constructor(config: Pick<SlackConfig, 'botToken' | 'signingSecret' | 'apiRoot'>, private readonly log: (line: string) => void) {
    // Retries and rate limits are the channel outbox's, so a 429 never holds a request open here.
    this.client = new WebClient(config.botToken, {
      slackApiUrl: `${config.apiRoot ?? SLACK_API_ROOT}/`,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
      logLevel: LogLevel.ERROR,
      timeout: 30_000,
    });
    this.routes = slackRoutes({
      sink: () => this.sink,
      secret: config.signingSecret,
      log,
      notify: (channel, user, text) => {
        this.client.chat.postEphemeral({ channel, user, text }).catch((err: unknown) => log(`telling ${user} failed: ${apiError(err).message}`));
      },
    });
  }

  /** `auth.test` proves the token before the channel says it is ready. */
  async start(sink: ChannelSink): Promise<void> {
    try {
      await this.client.auth.test();
    } catch (err) {
      throw apiError(err);
    }
    this.sink = sink;
  }

  acceptWebhooks(sink: ChannelSink): void {
    this.sink = sink;
  }

  async stop(): Promise<void> {
    this.sink = null;
  }

  async post(conversation: string, post: Post): Promise<string> {
    try {
      const sent = await this.client.chat.postMessage({ channel: conversation, text: escape(withCodeBlock(post.text, post.pre)), blocks: slackBlocks(post) });
      if (!sent.ts) throw new ChannelApiError('chat.postMessage answered no ts');
      return sent.ts;
    } catch (err) {
      throw err instanceof ChannelApiError ? err : apiError(err);
    }
  }

  async edit(conversation: string, ref: string, post: Post): Promise<void> {
    try {
      await this.client.chat.update({ channel: conversation, ts: ref, text: escape(post.text), blocks: slackBlocks(post) });
    } catch (err) {
      throw apiError(err);
    }
  }
}
