import { z } from 'zod';
import { Role, Scope } from '../protocol/index.ts';

/**
 * A1: the gateway config file (`--config FILE`). The gateway's own input, not part of the wire contract: only the
 * gateway and the commands that start it read it.
 */
export const IdentityConfig = z.object({
  id: z.string().min(1),
  token: z.string().min(8, { error: 'token must be at least 8 characters' }),
  role: Role,
  scopes: z.array(Scope),
  /** RU1: tools this identity may not use, e.g. `["ask_user"]` (no question.request, no secret.request). */
  deny: z.array(z.string().min(1)).optional(),
});
export type IdentityConfig = z.infer<typeof IdentityConfig>;
export const GatewayConfig = z.object({
  identities: z.array(IdentityConfig).min(1, { error: 'identities must list at least one identity' }),
  policy: z
    .object({
      maxPayload: z.number().int().positive().optional(),
      tickIntervalMs: z.number().int().positive().optional(),
      rateLimit: z.object({ burst: z.number().int().positive(), perSecond: z.number().positive() }).optional(),
    })
    .optional(),
  /** PRODUCT H1-H7: Telegram, Slack and Discord; the gateway checks this section's fields itself. */
  channels: z.unknown().optional(),
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;
