import type { RawData } from 'ws';
import type { Cancellation } from '../hub/waiters.ts';

/** One request in flight: cancelled means no response is sent, whatever the handler still does. */
export class Inflight implements Cancellation {
  cancelled = false;
  reason: Error | undefined;
  private hooks: ((reason: Error) => void)[] | undefined;

  onCancel(fn: (reason: Error) => void): () => void {
    (this.hooks ??= []).push(fn);
    return () => {
      const at = this.hooks?.indexOf(fn) ?? -1;
      if (at !== -1) this.hooks!.splice(at, 1);
    };
  }

  cancel(why: string): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = new Error(why);
    const hooks = this.hooks;
    this.hooks = undefined;
    for (const fn of hooks ?? []) fn(this.reason);
  }
}

export function rawBytes(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return data;
}

/** The request id of a frame that failed to parse, when it has a readable one (so the error can answer it). */
export function readableId(raw: unknown): string | null {
  if (raw && typeof raw === 'object' && 'id' in raw) {
    const id = (raw as { id: unknown }).id;
    if (typeof id === 'string' && id.length > 0 && id.length <= 128) return id;
  }
  return null;
}
