import type { ServerResponse } from 'node:http';
import { FakeHttp, json, type FakeCall } from './fake-http.ts';

export type TelegramButton = { text: string; callback_data?: string; url?: string };
/** A message the bot sent, as the fake keeps it (edits change it in place). */
export type BotMessage = {
  message_id: number;
  chat_id: string;
  text: string;
  reply_markup?: { inline_keyboard?: TelegramButton[][]; force_reply?: boolean };
  entities?: { type: string; offset: number; length: number }[];
};

/**
 * A fake Telegram Bot API on loopback: `getMe`, long-polled `getUpdates`, `sendMessage`, `editMessageText`,
 * `answerCallbackQuery`, `deleteWebhook`. Tests play the user with `userSends` and `userPresses`.
 */
export class FakeTelegram {
  readonly http: FakeHttp;
  readonly messages: BotMessage[] = [];
  private readonly updates: Record<string, unknown>[] = [];
  private readonly polls = new Set<{ offset: number; res: ServerResponse; timer: NodeJS.Timeout }>();
  private nextUpdate = 1;
  private nextMessage = 100;
  /** getUpdates calls made while another one was still waiting: two pollers on one bot (Telegram answers them 409). */
  overlappingPolls = 0;

  constructor(readonly token = '123456:TEST-token') {
    this.http = new FakeHttp(
      (path) => path.split('/').pop() ?? '',
      (call, res) => this.handle(call, res),
      (f) => ({
        headers: {},
        body: {
          ok: false,
          error_code: f.status,
          description: f.status === 429 ? `Too Many Requests: retry after ${f.retryAfterS}` : 'Internal Server Error',
          ...(f.retryAfterS !== undefined ? { parameters: { retry_after: f.retryAfterS } } : {}),
        },
      }),
    );
  }

  static async start(token?: string): Promise<FakeTelegram> {
    const fake = new FakeTelegram(token);
    await fake.http.listen();
    return fake;
  }

  /** The `apiRoot` to configure. */
  get apiRoot(): string {
    return this.http.origin;
  }

  private ok(res: ServerResponse, result: unknown): void {
    json(res, 200, { ok: true, result });
  }

  private handle(call: FakeCall, res: ServerResponse): void {
    if (!call.path.startsWith(`/bot${this.token}/`)) return json(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const b = call.body as Record<string, never>;
    switch (call.method) {
      case 'getMe':
        return this.ok(res, { id: 999, is_bot: true, first_name: 'askdock', username: 'askdock_bot' });
      case 'deleteWebhook':
      case 'answerCallbackQuery':
        return this.ok(res, true);
      case 'getUpdates':
        return this.poll(Number(b.offset ?? 0), Number(b.timeout ?? 0), res);
      case 'sendMessage': {
        const message: BotMessage = { message_id: this.nextMessage++, chat_id: String(b.chat_id), text: String(b.text), ...(b.reply_markup ? { reply_markup: b.reply_markup } : {}), ...(b.entities ? { entities: b.entities } : {}) };
        this.messages.push(message);
        return this.ok(res, this.asTelegram(message));
      }
      case 'editMessageText': {
        const message = this.messages.find((m) => m.chat_id === String(b.chat_id) && m.message_id === Number(b.message_id));
        if (!message) return json(res, 400, { ok: false, error_code: 400, description: 'Bad Request: message to edit not found' });
        message.text = String(b.text);
        message.reply_markup = b.reply_markup;
        message.entities = b.entities;
        return this.ok(res, this.asTelegram(message));
      }
      default:
        return json(res, 404, { ok: false, error_code: 404, description: `Not Found: method ${call.method}` });
    }
  }

  private asTelegram(m: BotMessage) {
    return { message_id: m.message_id, date: 1, chat: { id: Number(m.chat_id), type: 'private' }, from: { id: 999, is_bot: true, first_name: 'askdock' }, text: m.text, ...(m.reply_markup ? { reply_markup: m.reply_markup } : {}) };
  }

  private poll(offset: number, timeoutS: number, res: ServerResponse): void {
    if (this.polls.size > 0) this.overlappingPolls++;
    // As Telegram: an offset confirms every update before it, which is then gone for every later poller.
    if (offset > 0) this.updates.splice(0, this.updates.filter((u) => (u.update_id as number) < offset).length);
    const ready = this.updates.filter((u) => (u.update_id as number) >= offset);
    if (ready.length > 0 || timeoutS === 0) return this.ok(res, ready);
    const entry = { offset, res, timer: setTimeout(() => this.answerPoll(entry, []), timeoutS * 1000) };
    this.polls.add(entry);
    res.on('close', () => {
      clearTimeout(entry.timer);
      this.polls.delete(entry);
    });
  }

  private answerPoll(entry: { offset: number; res: ServerResponse; timer: NodeJS.Timeout }, updates: unknown[]): void {
    clearTimeout(entry.timer);
    this.polls.delete(entry);
    if (!entry.res.writableEnded) this.ok(entry.res, updates);
  }

  private push(update: Record<string, unknown>): void {
    this.updates.push({ update_id: this.nextUpdate++, ...update });
    for (const entry of [...this.polls]) this.answerPoll(entry, this.updates.filter((u) => (u.update_id as number) >= entry.offset));
  }

  /** A user writes in a private chat (chat id = user id) or the given chat; `replyTo` quotes one of the bot's messages. */
  userSends(userId: number, text: string, chatId = userId, replyTo?: BotMessage): number {
    const message_id = this.nextMessage++;
    const quoted = replyTo ? { reply_to_message: this.asTelegram(replyTo) } : {};
    this.push({ message: { message_id, date: 1, chat: { id: chatId, type: 'private', first_name: `User ${userId}` }, from: { id: userId, is_bot: false, first_name: `User ${userId}` }, text, ...quoted } });
    return message_id;
  }

  /** A user presses an inline button of a bot message (as seen in chat `chatId`, by default the message's own). */
  userPresses(userId: number, message: BotMessage, data: string, chatId = message.chat_id): string {
    const id = `cb${this.nextUpdate}`;
    this.push({ callback_query: { id, chat_instance: 'ci', data, from: { id: userId, is_bot: false, first_name: `User ${userId}` }, message: this.asTelegram({ ...message, chat_id: chatId }) } });
    return id;
  }

  /** The buttons of a message, row by row. */
  static buttons(m: BotMessage | undefined): TelegramButton[][] {
    return m?.reply_markup?.inline_keyboard ?? [];
  }

  async close(): Promise<void> {
    for (const entry of [...this.polls]) this.answerPoll(entry, []);
    await this.http.close();
  }
}

/** The shared channel scenarios, played on Telegram: everyone writes in one group chat. */
export class TelegramDriver {
  readonly name = 'telegram' as const;
  readonly ids = { alice: '5551234', bob: '5552222', carol: '5553333' };
  readonly chatId = -1001;
  readonly otherConversation = '-1002';
  fake!: FakeTelegram;

  get api() {
    return { http: this.fake.http, post: 'sendMessage', edit: 'editMessageText' };
  }

  async start(): Promise<void> {
    this.fake = await FakeTelegram.start();
  }

  config(users: Record<string, string>): Record<string, unknown> {
    return { botToken: this.fake.token, users, apiRoot: this.fake.apiRoot };
  }

  /** `replyTo`: the bot message (as seen) the user's message replies to, as a reply to a Force Reply does. */
  async userSays(user: string, text: string, replyTo?: { ref: string }): Promise<void> {
    const quoted = replyTo ? this.fake.messages.find((m) => String(m.message_id) === replyTo.ref) : undefined;
    if (replyTo && !quoted) throw new Error(`no message ${replyTo.ref} to reply to`);
    this.fake.userSends(Number(user), text, this.chatId, quoted);
  }

  async press(user: string, seen: { ref: string }, label: string, from?: string): Promise<void> {
    const message = this.fake.messages.find((m) => String(m.message_id) === seen.ref);
    const button = FakeTelegram.buttons(message).flat().find((b) => b.text === label);
    if (!message || !button?.callback_data) throw new Error(`no button "${label}" on message ${seen.ref}`);
    this.fake.userPresses(Number(user), message, button.callback_data, from);
  }

  notices(): string[] {
    return this.fake.http.callsOf('answerCallbackQuery').flatMap((c) => ((c.body as { text?: string }).text ? [(c.body as { text: string }).text] : []));
  }

  messages() {
    return this.fake.messages.map((m) => ({
      ref: String(m.message_id),
      text: m.text,
      buttons: FakeTelegram.buttons(m).flat().map((b) => b.text),
      ...(m.reply_markup?.force_reply ? { forceReply: true } : {}),
      ...preOf(m),
    }));
  }

  close(): Promise<void> {
    return this.fake.close();
  }
}

/** X2: a `pre` entity's text, as Telegram shows it: a code block. */
function preOf(m: BotMessage): { code?: string } {
  const pre = m.entities?.find((e) => e.type === 'pre');
  return pre ? { code: m.text.slice(pre.offset, pre.offset + pre.length) } : {};
}
