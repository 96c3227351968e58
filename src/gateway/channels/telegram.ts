import { Bot, GrammyError, HttpError, type Context } from 'grammy';
import type { InlineKeyboardButton } from 'grammy/types';
import type { TelegramConfig } from './registry.ts';
import { ChannelApiError, type ChannelAdapter, type ChannelSink, type Post } from './types.ts';

type GrammySignal = NonNullable<Parameters<Bot['init']>[0]>;

export const TELEGRAM_API_ROOT = 'https://api.telegram.org';

/** Telegram's answer as a ChannelApiError: 429 carries `retry_after`; other 4xx are permanent; the rest is retried. */
function apiError(err: unknown): ChannelApiError {
  if (err instanceof GrammyError) {
    const retry = err.parameters.retry_after;
    if (err.error_code === 429) return new ChannelApiError(err.description, (retry ?? 1) * 1000);
    return new ChannelApiError(err.description, undefined, err.error_code >= 400 && err.error_code < 500);
  }
  return new ChannelApiError(err instanceof HttpError ? err.message : String(err));
}

/** H3: one full-width button per row: the options, `Other…`, `Skip`, then any link. */
function keyboard(post: Post): InlineKeyboardButton[][] {
  return post.buttons.map((b) => [b.kind === 'link' ? { text: b.label, url: b.url } : { text: b.label, callback_data: b.action }]);
}

const chatTitle = (ctx: Context): string | undefined => {
  const chat = ctx.chat;
  if (!chat) return undefined;
  const name = 'title' in chat && chat.title ? chat.title : [ctx.from?.first_name, ctx.from?.last_name].filter(Boolean).join(' ');
  return name ? `Telegram · ${name}` : undefined;
};

/** Telegram through grammy: updates by long polling `getUpdates` (H7), posts and edits through the Bot API. */
export class TelegramAdapter implements ChannelAdapter {
  readonly name = 'telegram' as const;
  /** sendMessage's cap. */
  readonly textLimit = 4096;
  readonly routes = [];
  private readonly bot: Bot;
  private polling: Promise<void> | null = null;
  /** Aborted by stop(): every call in flight and every retry wait ends at once, so nothing holds a shutdown. */
  private life = new AbortController();
  /** getUpdates failures in a row (each logged with grammy's wait before its next try). */
  private pollFailures = 0;

  constructor(
    config: Pick<TelegramConfig, 'botToken' | 'apiRoot'>,
    private readonly log: (line: string) => void,
  ) {
    // A call that hears nothing gives up after a minute (grammy's default is 500 s), longer than a long poll's 30 s.
    this.bot = new Bot(config.botToken, { client: { apiRoot: config.apiRoot ?? TELEGRAM_API_ROOT, timeoutSeconds: 60 } });
    this.bot.api.config.use(async (prev, method, payload, signal) => {
      const call = this.withLife(signal);
      const res = await prev(method, payload, call.signal).finally(call.done).catch((err: unknown) => {
        // Connecting (getMe, deleteWebhook) is retried by the channel, which logs each retry; grammy's own silent
        // retries would keep trying forever without a word. A failed getUpdates is retried by grammy's poll loop.
        if (method === 'getUpdates') this.pollFailed((err as Error).message, undefined);
        if (method === 'getMe' || method === 'deleteWebhook') throw new Error(`${method}: ${(err as Error).message}`, { cause: err });
        throw err;
      });
      if (method === 'getUpdates') {
        if (res.ok) this.pollFailures = 0;
        else if (res.error_code >= 500 || res.error_code === 429) this.pollFailed(res.description, res.parameters?.retry_after);
      }
      if ((method === 'getMe' || method === 'deleteWebhook') && !res.ok && (res.error_code >= 500 || res.error_code === 429))
        throw new Error(`${method}: ${res.description}`);
      // Polling starts by clearing any webhook. A stand-in that serves only getUpdates (H7) answers deleteWebhook with 404;
      // there is no webhook to clear on it, so that refusal does not keep the channel from starting.
      if (method !== 'deleteWebhook' || res.ok || res.error_code !== 404) return res;
      this.log(`deleteWebhook answered 404 (${res.description}): no webhook to clear, polling anyway`);
      return { ok: true, result: true } as Awaited<ReturnType<typeof prev>>;
    });
    this.listen(this.bot);
  }

  /**
   * A signal that aborts with `signal` (grammy's own, of its AbortController shim) or when the adapter stops; `done`
   * unhooks it once the call is over, so the adapter's signal gathers no listeners.
   */
  private withLife(signal: GrammySignal | undefined): { signal: GrammySignal; done: () => void } {
    const life = this.life.signal;
    if (!signal) return { signal: life as unknown as GrammySignal, done: () => undefined };
    const both = new AbortController();
    const abort = () => both.abort();
    const sources = [signal, life] as unknown as AbortSignal[];
    for (const source of sources) if (source.aborted) both.abort();
    for (const source of sources) source.addEventListener('abort', abort);
    return { signal: both.signal as unknown as GrammySignal, done: () => sources.forEach((source) => source.removeEventListener('abort', abort)) };
  }

  /** grammy waits 3 s (or a 429's retry_after) before it polls again; said once per failure. */
  private pollFailed(why: string, retryAfterS: number | undefined): void {
    if (this.life.signal.aborted) return;
    this.pollFailures++;
    this.log(`getUpdates failed (attempt ${this.pollFailures}: ${why}); retrying in ${(retryAfterS ?? 3) * 1000} ms`);
  }

  private sink: ChannelSink | null = null;

  /** Handlers once per bot: a reconnect after an outage starts the same bot again. */
  private listen(bot: Bot): void {
    bot.on('message:text', async (ctx) => {
      await this.sink?.message({
        conversation: String(ctx.chat.id),
        user: String(ctx.from.id),
        text: ctx.message.text,
        messageId: String(ctx.message.message_id),
        ...(chatTitle(ctx) ? { conversationTitle: chatTitle(ctx) } : {}),
        ...(ctx.message.reply_to_message ? { replyTo: String(ctx.message.reply_to_message.message_id) } : {}),
      });
    });
    bot.on('callback_query:data', async (ctx) => {
      const message = ctx.callbackQuery.message;
      const reply = message && this.sink
        ? await this.sink.press({
            conversation: String(message.chat.id),
            user: String(ctx.from.id),
            action: ctx.callbackQuery.data,
            ref: String(message.message_id),
          })
        : {};
      // H1: a press from an unmapped user gets no call back at all (Telegram requires none).
      if (!reply.ignored) await ctx.answerCallbackQuery(reply.notice ? { text: reply.notice } : {});
    });
    bot.catch((err) => this.log(`handling update ${err.ctx.update.update_id} failed: ${(err.error as Error)?.message ?? String(err.error)}`));
  }

  async start(sink: ChannelSink): Promise<void> {
    const bot = this.bot;
    if (this.life.signal.aborted) this.life = new AbortController();
    const life = this.life.signal;
    this.sink = sink;
    this.pollFailures = 0;
    await bot.init(life as unknown as GrammySignal);
    await new Promise<void>((ready, fail) => {
      // H1: ready once Telegram has answered a getUpdates (after the webhook is cleared): messages are being received.
      // grammy's loop then long-polls on; it retries failed getUpdates calls itself (and waits out a 429's retry_after).
      const onStart = async () => {
        await bot.api.getUpdates({ limit: 1, timeout: 0 }, life as unknown as GrammySignal);
        ready();
      };
      this.polling = bot.start({ allowed_updates: ['message', 'callback_query'], onStart }).catch((err: unknown) => {
        fail(err as Error);
        if (!life.aborted) this.log(`polling stopped: ${(err as Error).message}`);
      });
    });
  }

  /** Ends polling and every call in flight at once, however unreachable the API is. */
  async stop(): Promise<void> {
    this.sink = null;
    this.life.abort();
    // grammy's stop confirms the last update with one more getUpdates; aborted with the rest, it fails at once.
    if (this.bot.isRunning()) await this.bot.stop().catch(() => undefined);
    await this.polling;
  }

  async post(conversation: string, post: Post): Promise<string> {
    const reply_markup = post.forceReply ? { force_reply: true as const } : post.buttons.length ? { inline_keyboard: keyboard(post) } : undefined;
    try {
      // X2: a detail goes under the text as a `pre` entity: the text stays plain, so nothing in it is read as markup.
      const text = post.pre === undefined ? post.text : post.text ? `${post.text}\n\n${post.pre}` : post.pre;
      const entities = post.pre === undefined ? undefined : [{ type: 'pre' as const, offset: text.length - post.pre.length, length: post.pre.length }];
      const sent = await this.bot.api.sendMessage(conversation, text, { ...(reply_markup ? { reply_markup } : {}), ...(entities ? { entities } : {}) });
      return String(sent.message_id);
    } catch (err) {
      throw apiError(err);
    }
  }

  async edit(conversation: string, ref: string, post: Post): Promise<void> {
    try {
      await this.bot.api.editMessageText(conversation, Number(ref), post.text, { reply_markup: { inline_keyboard: keyboard(post) } });
    } catch (err) {
      // The same outcome shown twice (a repeat after a restart) is already done.
      if (err instanceof GrammyError && /message is not modified/i.test(err.description)) return;
      throw apiError(err);
    }
  }
}
