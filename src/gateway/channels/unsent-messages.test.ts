import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGE_MAX } from '../../protocol/index.ts';
import { until } from '../../testing/channels/fake-http.ts';
import { DiscordDriver } from '../../testing/channels/fake-discord.ts';
import { SlackDriver } from '../../testing/channels/fake-slack.ts';
import { TelegramDriver } from '../../testing/channels/fake-telegram.ts';
import { channelWorldPerTest, startChannelWorld, type ChannelWorld, type PlatformDriver } from '../../testing/channels/channel-harness.ts';
import { deploy } from '../../testing/channels/scenario-items.ts';
import { createMemoryStore } from '../store/memory.ts';
import type { Store } from '../store/types.ts';

const drivers: (() => PlatformDriver)[] = [() => new TelegramDriver(), () => new SlackDriver(), () => new DiscordDriver()];

/** What the conversation was told about an unsent message, once it was told. */
const told = (driver: PlatformDriver) => until(() => driver.messages().find((m) => m.text.startsWith('Not sent:')), 'why nothing was sent');

const sessionTexts = async (w: ChannelWorld, key: string) => (await w.t.gw.store.history(key, 50)).messages.map((m) => m.text);

describe.each(drivers.map((make) => [make().name, make] as const))('%s channel: a plain message the gateway refuses (H2, H4, C2)', (_name, make) => {
  const world = channelWorldPerTest(make);

  it('[H2][H4][A4] one who may not write in the conversation\'s session is told so, and nothing reaches the session', async () => {
    const { w, driver } = world;
    const key = await w.sessionFromFirstMessage('deploy please');
    await driver.userSays(driver.ids.bob, 'hello from bob');
    expect((await told(driver)).text).toBe('Not sent: you may not write in this session.');
    // A4: the words name no identity and no session.
    expect(driver.messages().map((m) => m.text).join('\n')).not.toMatch(/guest|session-|token/);
    expect(await sessionTexts(w, key)).toEqual(['deploy please']);
  });

  it('[H4][A3] a pending question its sender may not answer leaves the message plain: refused the same way, the question untouched', async () => {
    const { w, driver } = world;
    const key = await w.sessionFromFirstMessage('deploy please');
    const id = await w.ask(key, [deploy]);
    await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the question');
    await driver.userSays(driver.ids.bob, 'Staging');
    expect((await told(driver)).text).toBe('Not sent: you may not write in this session.');
    expect((await w.question(id)).status).toBe('pending');
    expect(await sessionTexts(w, key)).toEqual(['deploy please']);
  });

  it('[C2][H2] a message past 32 000 characters is told the limit and not sent; one at the limit is sent', async () => {
    const { w, driver } = world;
    const key = await w.sessionFromFirstMessage('deploy please');
    await driver.userSays(driver.ids.alice, 'x'.repeat(MESSAGE_MAX + 1));
    expect((await told(driver)).text).toBe('Not sent: the message is too long (at most 32000 characters).');
    expect(await sessionTexts(w, key)).toEqual(['deploy please']);
    await driver.userSays(driver.ids.alice, 'y'.repeat(MESSAGE_MAX));
    await until(async () => (await sessionTexts(w, key)).length === 2, 'the message at the limit');
    expect(driver.messages().filter((m) => m.text.startsWith('Not sent:'))).toHaveLength(1);
  });

  it('[H4][PT5][C2] with her question pending, a reply past the limit is told the limit, not to try again; the question stays asked', async () => {
    const { w, driver } = world;
    const key = await w.sessionFromFirstMessage('deploy please');
    const id = await w.ask(key, [deploy]);
    await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the question');
    await driver.userSays(driver.ids.alice, 'z'.repeat(MESSAGE_MAX + 1));
    expect((await told(driver)).text).toBe('Not sent: the message is too long (at most 32000 characters).');
    expect((await w.question(id)).status).toBe('pending');
    expect(await sessionTexts(w, key)).toEqual(['deploy please']);
  });
});

/** A store whose groups holding a message with text `lost` are rolled back at their commit: every try answers UNAVAILABLE (R3). */
function losingMessages(lost: string) {
  const inner = createMemoryStore();
  let doomed = false;
  const store: Store = {
    ...inner,
    insertMessage: async (msg) => {
      if (msg.text === lost) doomed = true;
      await inner.insertMessage(msg);
    },
    commitGroup: async () => {
      if (doomed) {
        doomed = false;
        throw new Error('the database refused the group');
      }
      await inner.commitGroup();
    },
  };
  return { inner, store };
}

describe.each(drivers.map((make) => [make().name, make] as const))('%s channel: a plain message the gateway could not save (R3, H2)', (_name, make) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('[H2][R3] a message every try of which was undone is told to try again, and is not in the session', async () => {
    const driver = make();
    const { inner, store } = losingMessages('ship it');
    const w = await startChannelWorld(driver, { store });
    close = async () => {
      await w.close();
      await inner.close();
    };
    const key = await w.sessionFromFirstMessage('deploy please');
    await driver.userSays(driver.ids.alice, 'ship it');
    expect((await told(driver)).text).toBe('Not sent: could not send just now; try again.');
    expect(await sessionTexts(w, key)).toEqual(['deploy please']);
  });
});
