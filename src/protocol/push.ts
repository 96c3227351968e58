import * as z from 'zod';

/** U17: a browser push subscription as `PushSubscription.toJSON()` gives it; keys are base64url. */
const Base64Url = (what: string, min: number, max: number) =>
  z
    .string({ error: `${what} must be a string` })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: `${what} must be base64url` })
    .min(min, { error: `${what} must be ${min}..${max} characters of base64url` })
    .max(max, { error: `${what} must be ${min}..${max} characters of base64url` });

export const PUSH_ENDPOINT_MAX = 2048;

export const PushSubscriptionInput = z.object({
  endpoint: z
    .string({ error: 'endpoint must be a string' })
    .min(1, { error: 'endpoint must not be empty' })
    .max(PUSH_ENDPOINT_MAX, { error: `endpoint must be at most ${PUSH_ENDPOINT_MAX} characters` }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      // An uncompressed P-256 point (65 bytes) and a 16-byte secret (RFC 8291).
      p256dh: Base64Url('p256dh', 86, 88),
      auth: Base64Url('auth', 22, 24),
    },
    { error: 'keys must be an object with p256dh and auth' },
  ),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

/** U17: the cap on one identity's subscriptions; a new one past it ends the identity's oldest. */
export const PUSH_SUBSCRIPTIONS_PER_IDENTITY = 5;

export const PushSubscriptionId = z
  .string({ error: 'id must be a string' })
  .regex(/^ps_[A-Za-z0-9_-]{1,64}$/, { error: 'id must be a push subscription id (ps_…) as push.list gives it' });

/** One of an identity's subscriptions as `push.list` shows it: no endpoint, no keys, no token (docs/security.md). */
export const PushSubscriptionInfo = z.object({
  id: PushSubscriptionId,
  /** The push service's origin, e.g. `https://fcm.googleapis.com`: which browser family it is. */
  service: z.string(),
  createdAtMs: z.number(),
});
export type PushSubscriptionInfo = z.infer<typeof PushSubscriptionInfo>;

const PushEndpointParam = z
  .string({ error: 'endpoint must be a string' })
  .min(1, { error: 'endpoint must not be empty' })
  .max(PUSH_ENDPOINT_MAX, { error: `endpoint must be at most ${PUSH_ENDPOINT_MAX} characters` });

/** Exactly one of `endpoint` (this browser's own) and `id` (any of the identity's devices, from push.list). */
export const PushUnsubscribeParams = z
  .object({ endpoint: PushEndpointParam.optional(), id: PushSubscriptionId.optional() })
  .refine((p) => (p.endpoint === undefined) !== (p.id === undefined), { error: 'give exactly one of endpoint and id', path: ['id'] });

/** A question's notification. */
const QuestionPush = z.object({
  type: z.literal('question'),
  /** The question's id (tag of its notification, and what an action answers). */
  id: z.string(),
  /** The item the actions answer, present only with `actions`. */
  itemId: z.string().optional(),
  title: z.string(),
  body: z.string(),
  /** The two option labels of a single-select question with exactly two options. */
  actions: z.array(z.string()).length(2).optional(),
  /** The question's link page, `/q/<id>`. */
  path: z.string(),
  /** E4: a routed question: the notification offers "I'm on it" (question.ack). */
  ack: z.literal(true).optional(),
});

/**
 * What a push carries to the Control UI's service worker (U17): only what the notification shows, never more
 * (docs/security.md). `question` shows a notification, `close` closes the one of a question that was resolved.
 */
export const PushPayload = z.discriminatedUnion('type', [
  QuestionPush,
  /**
   * `text`: E7, what the notification turns into instead of closing ("Answered by Ana · TUI"); `decision`: a routed
   * approval's Allow or Deny, shown on a line of its own above it.
   */
  z.object({ type: z.literal('close'), id: z.string(), text: z.string().optional(), decision: z.enum(['Allow', 'Deny']).optional() }),
  /**
   * E4: someone took the question (`text`, "Ana is on it"): said on its notification, which stays open to be answered.
   * It carries the question's own fields (its body led by `text`, without `ack`), so a worker that knows only `question`
   * and `close` shows it as the question's notification, saying who took it, not one titled "undefined".
   */
  QuestionPush.omit({ type: true, ack: true }).extend({ type: z.literal('taken'), text: z.string() }),
]);
export type PushPayload = z.infer<typeof PushPayload>;
