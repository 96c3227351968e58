import * as z from 'zod';
import { ErrorShape } from './errors.ts';

/** P2: every frame on the socket, discriminated on `type`. Payloads are checked per method / event. */
export const RequestFrame = z.object({
  type: z.literal('req'),
  id: z.string().min(1).max(128),
  method: z.string().min(1).max(128),
  params: z.unknown().optional(),
});
export type RequestFrame = z.infer<typeof RequestFrame>;

const ID_MAX = 128;
const fits = (s: unknown): s is string => typeof s === 'string' && s.length >= 1 && s.length <= ID_MAX;

/**
 * The everyday frame, a well-formed request, read without running the schema: exactly what `ClientFrame` would give
 * for it (unknown keys dropped, `params` kept when present). Anything else is null, and `ClientFrame` judges it, with
 * its errors. The gateway reads every request through this first.
 */
export function plainRequestFrame(raw: unknown): RequestFrame | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const { type, id, method } = raw as Record<string, unknown>;
  if (type !== 'req' || !fits(id) || !fits(method)) return null;
  return 'params' in raw ? { type, id, method, params: (raw as { params: unknown }).params } : { type, id, method };
}

export const ResponseFrame = z.union([
  z.object({ type: z.literal('res'), id: z.string().nullable(), ok: z.literal(true), payload: z.unknown() }),
  z.object({ type: z.literal('res'), id: z.string().nullable(), ok: z.literal(false), error: ErrorShape }),
]);
export type ResponseFrame = z.infer<typeof ResponseFrame>;

export const EventFrame = z.object({
  type: z.literal('event'),
  event: z.string(),
  payload: z.unknown(),
  seq: z.number().int().positive().optional(),
});
export type EventFrame = z.infer<typeof EventFrame>;

export const CancelFrame = z.object({ type: z.literal('cancel'), id: z.string().min(1).max(128) });
export type CancelFrame = z.infer<typeof CancelFrame>;

/** What a client may send. */
export const ClientFrame = z.discriminatedUnion('type', [RequestFrame, CancelFrame]);
export type ClientFrame = z.infer<typeof ClientFrame>;
/** What the gateway may send. */
export const ServerFrame = z.union([ResponseFrame, EventFrame]);
export type ServerFrame = z.infer<typeof ServerFrame>;
