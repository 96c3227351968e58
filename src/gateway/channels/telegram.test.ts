import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startTestGateway, testConfig } from '../../testing/gateway-harness.ts';
import { until } from '../../testing/channels/fake-http.ts';
import { startChannelWorld } from '../../testing/channels/channel-harness.ts';
import { deploy, lunch } from '../../testing/channels/scenario-items.ts';
import { fastClock } from '../../testing/agent-harness.ts';
import { FakeTelegram, TelegramDriver } from '../../testing/channels/fake-telegram.ts';

describe('telegram specifics', () => {
  /** A world where Alice's conversation was asked the deploy question, with its prompt as posted. */
  async function deployAsked() {
    const driver = new TelegramDriver();
    const w = await startChannelWorld(driver);
    const key = await w.sessionFromFirstMessage('deploy');
    const id = await w.ask(key, [deploy]);
    const prompt = await until(() => driver.messages().find((m) => m.buttons.includes('Other…')), 'the question');
    return { driver, w, id, prompt };
  }

  it('[H3] Other… answers nothing and asks for a reply with Force Reply', async () => {
    const { driver, w, id, prompt } = await deployAsked();
    try {
      await driver.press(driver.ids.alice, prompt, 'Other…');
      const ask = await until(() => driver.messages().find((m) => m.forceReply), 'the Force Reply prompt');
      expect(ask.text).toContain('Reply to this message with your answer');
      expect((await w.question(id)).status).toBe('pending');
    } finally {
      await w.close();
    }
  });

  it('[H3][H4] the reply to Other…\'s Force Reply answers that question, not another one pending in the conversation', async () => {
    const driver = new TelegramDriver();
    const w = await startChannelWorld(driver);
    try {
      const key = await w.sessionFromFirstMessage('lunch and deploy');
      const early = await w.ask(key, [lunch], { mode: 'async' });
      const lunchPrompt = await until(() => driver.messages().find((m) => m.buttons.includes('Pizza')), 'the lunch question');
      const later = await w.ask(key, [deploy]);
      await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the deploy question');
      await driver.press(driver.ids.alice, lunchPrompt, 'Other…');
      const ask = await until(() => driver.messages().find((m) => m.forceReply), 'the Force Reply prompt');
      await driver.userSays(driver.ids.alice, 'Ramen', ask);
      await until(async () => (await w.question(early)).status !== 'pending' || (await w.question(later)).status !== 'pending', 'an answer');
      expect(await w.question(early)).toMatchObject({ status: 'answered', answers: { lunch: ['Ramen'] } });
      expect((await w.question(later)).status).toBe('pending');
      // A reply to the question's own prompt answers it too; once it is answered, a reply to it answers nothing else.
      await driver.userSays(driver.ids.alice, 'Sushi', lunchPrompt);
      await until(async () => (await w.t.gw.store.history(key, 20)).messages.find((m) => m.text === 'Sushi'), 'the reply as a message');
      expect((await w.question(later)).status).toBe('pending');
    } finally {
      await w.close();
    }
  });

  it('[H3][H5] Other… under a question already answered says so and asks for nothing', async () => {
    const { driver, w, id, prompt } = await deployAsked();
    try {
      // The press was made on the message as it stood before the outcome's edit reached the person's phone.
      const message = driver.fake.messages.find((m) => String(m.message_id) === prompt.ref)!;
      const other = FakeTelegram.buttons(message).flat().find((b) => b.text === 'Other…')!.callback_data!;
      await w.admin.call('question.resolve', { id, answers: { env: ['Production'] } });
      await until(() => driver.messages().find((m) => m.ref === prompt.ref && m.buttons.length === 0), 'the outcome');
      driver.fake.userPresses(Number(driver.ids.alice), message, other);
      const answered = await until(() => driver.fake.http.callsOf('answerCallbackQuery').at(-1), 'the callback answer');
      expect((answered.body as { text?: string }).text).toBe('This question was already resolved.');
      expect(driver.messages().some((m) => m.forceReply)).toBe(false);
    } finally {
      await w.close();
    }
  });

  it('[H7][H1] starts on a stand-in without deleteWebhook; a press from an unmapped user gets no call back', async () => {
    class NoWebhookDriver extends TelegramDriver {
      async start(): Promise<void> {
        await super.start();
        this.fake.http.fail('deleteWebhook', { status: 404, times: 1_000_000 });
      }
    }
    const driver = new NoWebhookDriver();
    const w = await startChannelWorld(driver);
    try {
      expect(driver.fake.http.callsOf('deleteWebhook').length).toBeGreaterThan(0);
      const key = await w.sessionFromFirstMessage('deploy');
      const id = await w.ask(key, [deploy]);
      const prompt = await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the question');
      await driver.press(driver.ids.carol, prompt, 'Staging');
      await until(() => w.logs.find((l) => l.includes(`ignored a button press from unmapped user ${driver.ids.carol}`)), 'the press log line');
      expect(driver.fake.http.callsOf('answerCallbackQuery')).toEqual([]);
      // A mapped user's press is answered (the spinner stops) and answers the question.
      await driver.press(driver.ids.alice, prompt, 'Staging');
      await until(async () => (await w.question(id)).status === 'answered', 'the answer');
      expect(driver.fake.http.callsOf('answerCallbackQuery')).toHaveLength(1);
    } finally {
      await w.close();
    }
  });

  it('[H6][R3] a question the platform could not take before a restart is posted after it, and still answers', async () => {
    const driver = new TelegramDriver();
    const first = await startChannelWorld(driver);
    const key = await first.sessionFromFirstMessage('lunch?');
    driver.fake.http.fail('sendMessage', { status: 502, times: 1_000_000 });
    const id = await first.ask(key, [lunch], { mode: 'async' });
    await until(() => driver.fake.http.callsOf('sendMessage').length >= 1, 'a failed post');
    await first.close({ restart: true });
    driver.fake.http.fail('sendMessage', { status: 502, times: 0 });
    const second = await startChannelWorld(driver, { dir: first.t.dir });
    try {
      const prompt = await until(() => driver.messages().find((m) => m.buttons.includes('Sushi')), 'the post after the restart');
      await driver.press(driver.ids.alice, prompt, 'Salad');
      await until(async () => (await second.question(id)).status === 'answered', 'the answer');
      expect((await second.question(id)).answers).toEqual({ lunch: ['Salad'] });
      expect(driver.messages().filter((m) => m.buttons.includes('Sushi'))).toHaveLength(0);
    } finally {
      await second.close();
    }
  });

  it('[H5][Q7] a question that expires unanswered shows Expired, buttons gone', async () => {
    const driver = new TelegramDriver();
    // A hundred times real time: the shortest timeout (30 s) runs out in about 0.3 s.
    const w = await startChannelWorld(driver, { clock: fastClock(100) });
    try {
      const key = await w.sessionFromFirstMessage('deploy');
      const id = await w.ask(key, [deploy], { timeoutMs: 30_000 });
      await until(async () => (await w.question(id)).status === 'expired', 'the expiry');
      const shown = await until(() => driver.messages().find((m) => m.text.includes('Where should it deploy?') && m.text.endsWith('Expired')), 'Expired');
      expect(shown.buttons).toEqual([]);
    } finally {
      await w.close();
    }
  });
});

describe('telegram start and stop', () => {
  it('[H1] says ready only once a getUpdates has been answered, not before', async () => {
    const fake = await FakeTelegram.start();
    const pollsAtReady: number[] = [];
    const t = await startTestGateway({
      config: { ...testConfig, channels: { telegram: { botToken: fake.token, users: { '5551234': 'guest' }, apiRoot: fake.apiRoot } } },
      announce: (line) => {
        if (line === 'askdock channel telegram ready') pollsAtReady.push(fake.http.callsOf('getUpdates').length);
      },
    });
    try {
      await until(() => pollsAtReady.length > 0, 'the ready line');
      expect(pollsAtReady).toHaveLength(1);
      expect(pollsAtReady[0]).toBeGreaterThanOrEqual(1);
    } finally {
      await t.close();
      await fake.close();
    }
  });

  it('[H1] an apiRoot that refuses connections: each retry is logged with its attempt and its wait', async () => {
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const apiRoot = `http://127.0.0.1:${(closed.address() as { port: number }).port}`;
    await new Promise((ok) => closed.close(ok));
    const t = await startTestGateway({
      config: { ...testConfig, channels: { telegram: { botToken: '1:gone', users: { '5551234': 'guest' }, apiRoot } } },
      channelRetry: { baseDelayMs: 20, maxDelayMs: 80 },
    });
    try {
      const retries = () => t.logs.filter((l) => /askdock channel telegram: connecting failed \(attempt \d+: getMe: .*\); retrying in \d+ ms/.test(l));
      await until(() => retries().length >= 3, 'three logged retries');
      expect(retries()[0]).toContain('attempt 1:');
      expect(retries()[1]).toContain('attempt 2:');
    } finally {
      t.logs.length = 0;
      await t.close();
    }
  });
});
