import * as z from 'zod';
import { ResolvedByView, RouteState } from './routing.ts';
import { SECRET_DESCRIPTION_MAX, SECRET_NAME_PATTERN, SECRET_VALUE_MAX } from './rules.ts';

export const SecretName = z
  .string({ error: 'name must be a string' })
  .regex(SECRET_NAME_PATTERN, { error: 'name must match ^[A-Z][A-Z0-9_]{0,63}$ (e.g. OPENAI_API_KEY)' });

export const SecretStatus = z.enum(['pending', 'stored', 'skipped', 'expired', 'cancelled']);
export type SecretStatus = z.infer<typeof SecretStatus>;
export const SecretOutcome = z.enum(['stored', 'skipped', 'expired', 'cancelled']);
export type SecretOutcome = z.infer<typeof SecretOutcome>;

/** A secret request as every client sees it: what is asked and by whom, never a value (K1). */
export const SecretRequestRecord = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  sessionKey: z.string().optional(),
  runId: z.string().optional(),
  askedBy: z.string(),
  createdAtMs: z.number(),
  expiresAtMs: z.number(),
  status: SecretStatus,
  /** E7: who provided or skipped it, with their display name (`name`), and where. */
  resolvedBy: ResolvedByView.optional(),
  reason: z.string().optional(),
  /** E1/E11: a request a `kind: "secret"` route matched carries its route, as a routed question does. */
  route: RouteState.optional(),
});
export type SecretRequestRecord = z.infer<typeof SecretRequestRecord>;

const Key = z.string().min(1).max(128);

export const SecretRequestParams = z.object({
  name: SecretName,
  description: z
    .string({ error: 'description must be a string' })
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, { error: 'description must not be blank: say what the secret is for' })
        .max(SECRET_DESCRIPTION_MAX, { error: `description must be at most ${SECRET_DESCRIPTION_MAX} characters` }),
    ),
  sessionKey: Key.optional(),
  runId: Key.optional(),
  timeoutMs: z.number({ error: 'timeoutMs must be a number' }).finite().optional(),
});
export type SecretRequestInput = z.input<typeof SecretRequestParams>;

// The value's own error never repeats it: only its length rule.
const SecretValue = z
  .string({ error: 'value must be a string' })
  .min(1, { error: 'value must not be empty' })
  .max(SECRET_VALUE_MAX, { error: `value must be at most ${SECRET_VALUE_MAX} characters` });

/** K1: a value stores, a skip skips; both at once is refused rather than either dropped (the field the other excludes). */
const exclusive = () => z.never({ error: 'value and skip are exclusive' }).optional();

export const SecretProvideParams = z.union([
  z.object({ id: Key, value: SecretValue, skip: exclusive(), surface: z.string().max(64).optional() }),
  z.object({ id: Key, skip: z.literal(true), value: exclusive(), surface: z.string().max(64).optional() }),
]);
export type SecretProvideParams = z.infer<typeof SecretProvideParams>;

export const SecretWaitResult = z.object({ status: z.union([SecretOutcome, z.literal('pending')]), name: z.string() });
