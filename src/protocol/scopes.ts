import { z } from 'zod';

export const SCOPES = [
  'operator.admin',
  'operator.read',
  'operator.write',
  'operator.questions',
  'operator.sessions.write',
  'agent.run',
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;
export const Role = z.enum(['operator', 'agent']);
export type Role = z.infer<typeof Role>;

/** A1: the gateway config file. */
export const IdentityConfig = z.object({
  id: z.string().min(1),
  token: z.string().min(8, { error: 'token must be at least 8 characters' }),
  role: Role,
  scopes: z.array(Scope),
});
export type IdentityConfig = z.infer<typeof IdentityConfig>;
export const GatewayConfig = z.object({
  identities: z.array(IdentityConfig).min(1, { error: 'identities must list at least one identity' }),
  /** S1: browser origins besides the gateway's own that may open `/ws`, e.g. `https://tools.example`. */
  allowedOrigins: z.array(z.string().min(1)).optional(),
  /** S3: Host names (optionally `name:port`) a loopback gateway also answers to, e.g. behind a local proxy. */
  allowedHosts: z.array(z.string().min(1)).optional(),
  policy: z
    .object({
      maxPayload: z.number().int().positive().optional(),
      tickIntervalMs: z.number().int().positive().optional(),
      rateLimit: z.object({ burst: z.number().int().positive(), perSecond: z.number().positive() }).optional(),
    })
    .optional(),
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;
