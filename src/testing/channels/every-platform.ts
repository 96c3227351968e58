import { describe } from 'vitest';
import type { ChannelName } from '../../gateway/channels/registry.ts';
import { channelWorldPerTest, type ChannelWorld, type PlatformDriver, type SeenMessage } from './channel-harness.ts';
import { DiscordDriver } from './fake-discord.ts';
import { until } from './fake-http.ts';
import { SlackDriver } from './fake-slack.ts';
import { TelegramDriver } from './fake-telegram.ts';

/** The world of the running test, and a wait for the first bot message that passes `fn`. */
export type PlatformWorld = {
  readonly driver: PlatformDriver;
  readonly w: ChannelWorld;
  posted(what: string, fn: (m: SeenMessage) => boolean): Promise<SeenMessage>;
};

const PLATFORMS: (() => PlatformDriver)[] = [() => new TelegramDriver(), () => new SlackDriver(), () => new DiscordDriver()];

/** Each platform's name and a maker of its driver, as a `describe.each` table. */
export const EVERY_PLATFORM = PLATFORMS.map((make) => [make().name, make] as const);

/** Buttons each platform shows under one single-select question (H3). */
export const BUTTONS: Record<string, string[]> = {
  telegram: ['Staging', 'Production', 'Other…', 'Skip'],
  slack: ['Staging', 'Production', 'Skip'],
  discord: ['Staging', 'Production', 'Skip'],
};

/** One describe block per platform (`telegram channel: <title>`), each test on a world of its own. */
export function describeOnEveryPlatform(title: string, body: (name: ChannelName, world: PlatformWorld) => void): void {
  describe.each(EVERY_PLATFORM)(`%s channel: ${title}`, (name, make) => {
    const current = channelWorldPerTest(make);
    body(name, {
      get driver() {
        return current.driver;
      },
      get w() {
        return current.w;
      },
      posted: (what, fn) => until(() => current.driver.messages().find(fn), what),
    });
  });
}
