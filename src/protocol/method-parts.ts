import * as z from 'zod';

/** What several method areas share: a key, an idempotency key, and params that take nothing. */
export const Key = z.string().min(1).max(128);
export const IdempotencyKey = z
  .string({ error: 'idempotencyKey must be a string' })
  .min(8, { error: 'idempotencyKey must be 8..128 characters' })
  .max(128, { error: 'idempotencyKey must be 8..128 characters' });
export const Empty = z.object({}).optional().transform(() => ({}));
