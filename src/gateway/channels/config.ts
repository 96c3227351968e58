import * as z from 'zod';
import { formatPath } from '../../protocol/index.ts';
import { CHANNEL_NAMES, CHANNELS } from './registry.ts';

type OptionalSections = { [K in keyof typeof CHANNELS]: z.ZodOptional<(typeof CHANNELS)[K]['config']> };
const sections = Object.fromEntries(CHANNEL_NAMES.map((name) => [name, CHANNELS[name].config.optional()])) as OptionalSections;

/** The `channels` section of the gateway config (PRODUCT H1-H7): one optional section per platform in CHANNELS. */
export const ChannelsConfig = z.strictObject({
  /**
   * X2: the Control UI's address as the people in the channels reach it (e.g. `https://askdock.example.com`), for the
   * question page links posted under a detail; the gateway's own address when left out.
   */
  publicUrl: z
    .string({ error: 'publicUrl must be a URL' })
    .regex(/^https?:\/\/[^\s]+$/, { error: 'publicUrl must be an http(s) URL' })
    .optional(),
  ...sections,
});
export type ChannelsConfig = z.infer<typeof ChannelsConfig>;

/** Parses `channels`, returning every problem as `channels.<path>: <problem>`, users included when they name no identity. */
export function parseChannels(raw: unknown, identityIds: ReadonlySet<string>): { ok: true; channels: ChannelsConfig } | { ok: false; problems: string[] } {
  if (raw === undefined) return { ok: true, channels: {} };
  const parsed = ChannelsConfig.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => `${formatPath(['channels', ...i.path])}: ${i.message}`) };
  const problems: string[] = [];
  for (const name of CHANNEL_NAMES) {
    for (const [user, identity] of Object.entries(parsed.data[name]?.users ?? {}))
      if (!identityIds.has(identity)) problems.push(`channels.${name}.users.${user}: "${identity}" is not an identity of this config`);
  }
  return problems.length ? { ok: false, problems } : { ok: true, channels: parsed.data };
}
