import type { RawData } from 'ws';

/** One request in flight: cancelled means no response is sent, whatever the handler still does. */
export class Inflight {
  cancelled = false;
  private controller: AbortController | undefined;

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.cancelled && !this.controller.signal.aborted) this.controller.abort(new Error('cancelled'));
    return this.controller.signal;
  }

  cancel(why: string): void {
    this.cancelled = true;
    this.controller?.abort(new Error(why));
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
