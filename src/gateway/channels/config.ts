import { z } from 'zod';
import { formatPath } from '../../protocol/index.ts';

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

/** The `channels` section of the gateway config (PRODUCT H1-H7). */
export const ChannelsConfig = z.strictObject({
  /**
   * X2: the Control UI's address as the people in the channels reach it (e.g. `https://askdock.example.com`), for the
   * question page links posted under a detail; the gateway's own address when left out.
   */
  publicUrl: z
    .string({ error: 'publicUrl must be a URL' })
    .regex(/^https?:\/\/[^\s]+$/, { error: 'publicUrl must be an http(s) URL' })
    .optional(),
  telegram: TelegramConfig.optional(),
  slack: SlackConfig.optional(),
  discord: DiscordConfig.optional(),
});
export type ChannelsConfig = z.infer<typeof ChannelsConfig>;
export type TelegramConfig = z.infer<typeof TelegramConfig>;
export type SlackConfig = z.infer<typeof SlackConfig>;
export type DiscordConfig = z.infer<typeof DiscordConfig>;

/** Parses `channels`, returning every problem as `channels.<path>: <problem>`, users included when they name no identity. */
export function parseChannels(raw: unknown, identityIds: ReadonlySet<string>): { ok: true; channels: ChannelsConfig } | { ok: false; problems: string[] } {
  if (raw === undefined) return { ok: true, channels: {} };
  const parsed = ChannelsConfig.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => `${formatPath(['channels', ...i.path])}: ${i.message}`) };
  const problems: string[] = [];
  for (const name of ['telegram', 'slack', 'discord'] as const) {
    for (const [user, identity] of Object.entries(parsed.data[name]?.users ?? {}))
      if (!identityIds.has(identity)) problems.push(`channels.${name}.users.${user}: "${identity}" is not an identity of this config`);
  }
  return problems.length ? { ok: false, problems } : { ok: true, channels: parsed.data };
}
