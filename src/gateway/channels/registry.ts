import * as z from 'zod';
import type { ChannelAdapter } from './types.ts';

/** What a platform can do, for rendering: channels branch on these, never on a platform's name. */
export type ChannelCapabilities = {
  /**
   * The platform can ask for a reply to one message (Telegram's Force Reply): `Other…` is a button that asks for it.
   * Elsewhere any reply in the conversation is the free text, and the prompt says so.
   */
  forceReply: boolean;
};

/** `users`: platform user id -> askdock identity id (H1). */
const Users = z.record(z.string().min(1), z.string().min(1, { error: 'must name an identity' }), {
  error: 'users must map platform user ids to identity ids',
});
const Secret = (what: string) => z.string({ error: `${what} must be a string` }).min(1, { error: `${what} must not be empty` });
const ApiRoot = z
  .string({ error: 'apiRoot must be a URL' })
  .regex(/^https?:\/\/[^\s]+$/, { error: 'apiRoot must be an http(s) URL' })
  .transform((s) => s.replace(/\/+$/, ''))
  .optional();

export const TelegramConfig = z.strictObject({ botToken: Secret('botToken'), users: Users, apiRoot: ApiRoot });
export const SlackConfig = z.strictObject({
  botToken: Secret('botToken'),
  signingSecret: Secret('signingSecret'),
  users: Users,
  apiRoot: ApiRoot,
});
export const DiscordConfig = z.strictObject({
  botToken: Secret('botToken'),
  applicationId: Secret('applicationId'),
  publicKey: z.string({ error: 'publicKey must be a string' }).regex(/^[0-9a-fA-F]{64}$/, { error: 'publicKey must be 64 hex digits' }),
  users: Users,
  apiRoot: ApiRoot,
});
export type TelegramConfig = z.infer<typeof TelegramConfig>;
export type SlackConfig = z.infer<typeof SlackConfig>;
export type DiscordConfig = z.infer<typeof DiscordConfig>;

/** Every platform config maps its users to identities (H1). */
type PlatformConfig = { users: Record<string, string> };

/** One platform: its `channels.<name>` config section, how its adapter is loaded, and what it can do. */
export type ChannelEntry<Config extends PlatformConfig> = {
  config: z.ZodType<Config>;
  /** Loads the platform's library only when it is configured: a gateway without channels starts as fast as before. */
  load(config: Config, log: (line: string) => void): Promise<ChannelAdapter>;
  capabilities: ChannelCapabilities;
};

const entry = <Config extends PlatformConfig>(e: ChannelEntry<Config>) => e;

/** The chat platforms askdock answers from (PRODUCT H1-H7): a new one is one adapter file and one entry here. */
export const CHANNELS = {
  telegram: entry({
    config: TelegramConfig,
    load: async (config: TelegramConfig, log): Promise<ChannelAdapter> => new (await import('./telegram.ts')).TelegramAdapter(config, log),
    capabilities: { forceReply: true },
  }),
  slack: entry({
    config: SlackConfig,
    load: async (config: SlackConfig, log): Promise<ChannelAdapter> => new (await import('./slack.ts')).SlackAdapter(config, log),
    capabilities: { forceReply: false },
  }),
  discord: entry({
    config: DiscordConfig,
    load: async (config: DiscordConfig, log): Promise<ChannelAdapter> => new (await import('./discord.ts')).DiscordAdapter(config, log),
    capabilities: { forceReply: false },
  }),
};

/** The surface of a channel's answers is `channel:<name>`. */
export type ChannelName = keyof typeof CHANNELS;
export const CHANNEL_NAMES = Object.keys(CHANNELS) as ChannelName[];
