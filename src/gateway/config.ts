import { isIP } from 'node:net';
import * as z from 'zod';
import { Role, Scope } from '../protocol/index.ts';

/**
 * A1: the gateway config file (`--config FILE`). The gateway's own input, not part of the wire contract: only the
 * gateway and the commands that start it read it.
 */
/**
 * S4: short tokens are guessable; 24 characters of a random token are 144 bits and more. A gateway reachable beyond
 * loopback refuses a shorter token at start; on loopback (a person's own machine, a test) it starts and warns.
 */
export const MIN_TOKEN_LENGTH = 24;
export const IdentityConfig = z
  .object({
    id: z.string().min(1),
    /** E8: the name others see ("approved by Ana"); default the id. */
    name: z.string().min(1).max(100).optional(),
    token: z.string().min(1, { error: 'token must not be empty' }).optional(),
    /** S4: the hex SHA-256 of the token, so the config file need not hold the token itself. */
    tokenSha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, { error: 'tokenSha256 must be 64 hex digits (sha256 of the token)' })
      .optional(),
    role: Role,
    scopes: z.array(Scope),
    /** A6: for an agent, the operator id that creates the sessions the agent makes itself. */
    owner: z.string().min(1).optional(),
    /** RU1: tools this identity may not use, e.g. `["ask_user"]` (no question.request, no secret.request). */
    deny: z.array(z.string().min(1)).optional(),
  })
  .superRefine((identity, ctx) => {
    if (identity.token === undefined && identity.tokenSha256 === undefined)
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'give token or tokenSha256' });
    if (identity.token !== undefined && identity.tokenSha256 !== undefined)
      ctx.addIssue({ code: 'custom', path: ['tokenSha256'], message: 'give token or tokenSha256, not both' });
  });
export type IdentityConfig = z.infer<typeof IdentityConfig>;
export const GatewayConfig = z.object({
  identities: z.array(IdentityConfig).min(1, { error: 'identities must list at least one identity' }),
  /** A6: the agent new sessions are bound to when `sessions.create` names none; else the first agent. */
  defaultAgent: z.string().min(1).optional(),
  /** S1: browser origins besides the gateway's own that may open `/ws`, e.g. `https://tools.example`. */
  allowedOrigins: z.array(z.string().min(1)).optional(),
  /** S3: Host names (optionally `name:port`) a loopback gateway also answers to, e.g. behind a local proxy. */
  allowedHosts: z.array(z.string().min(1)).optional(),
  /**
   * S4: addresses of the proxies in front (e.g. `["127.0.0.1"]` for nginx on the same machine). Only a connection from
   * one of them has its client's address read from `X-Forwarded-For`, which keys the failed-connect limit.
   */
  trustedProxies: z
    .array(z.string().refine((a) => isIP(a) !== 0, { error: 'trustedProxies lists IP addresses, such as "127.0.0.1" or "::1"' }))
    .optional(),
  /**
   * The address people reach the gateway at (behind a proxy, e.g. `https://askdock.team.example`): every printed or
   * posted link (`askdock ask`/`mcp`, channels' buttons, the start banner) uses it instead of the bind address.
   */
  publicUrl: z.url({ protocol: /^https?$/, error: 'publicUrl must be an http:// or https:// address' }).optional(),
  policy: z
    .object({
      maxPayload: z.number().int().positive().optional(),
      tickIntervalMs: z.number().int().positive().optional(),
      rateLimit: z.object({ burst: z.number().int().positive(), perSecond: z.number().positive() }).optional(),
    })
    .optional(),
  /** U17: Web Push. `allowedEndpoints`: origins a push subscription may name besides the browsers' push services. */
  push: z
    .object({
      allowedEndpoints: z.array(z.url({ protocol: /^https?$/, error: 'allowedEndpoints must list http:// or https:// URLs such as https://push.example' })).optional(),
      /** The VAPID contact (`mailto:` or `https:`) push services see. */
      subject: z.string().regex(/^(mailto:|https:\/\/)/, { error: 'subject must start with mailto: or https://' }).optional(),
    })
    .optional(),
  /** PRODUCT G1: the approval policy (`rules`, `unmatched`, `file`); compiled by src/policy, which names each fault (G10). */
  approvals: z.unknown().optional(),
  /** PRODUCT E1: groups, schedules, escalations and routes; validated by src/routing, which names each fault by its path. */
  routing: z.unknown().optional(),
  /** PRODUCT L3: the audit log's `origin` and signing `keys` (src/audit AuditConfig checks it; a bad one leaves the log unsigned, L8). */
  audit: z.unknown().optional(),
  /** PRODUCT H1-H7: Telegram, Slack and Discord; the gateway checks this section's fields itself. */
  channels: z.unknown().optional(),
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;
