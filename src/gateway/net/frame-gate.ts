import type { RawData, WebSocket } from 'ws';
import { frameCost, TokenBucket, type Rate } from '../infra/rate-limit.ts';

/** Frames read but not yet paid for, at most; a client this far ahead is flooding, not bursting. */
const MAX_BACKLOG_FRAMES = 10_000;

export function rawLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data.byteLength;
}

/**
 * Frames are paid for before they are parsed, before login too: past the budget the socket is paused (TCP pushes back
 * on the sender) and what was already read waits its turn, unparsed, so a flood costs the event loop no parsing.
 */
export class FrameGate {
  private readonly bucket: TokenBucket;
  private readonly backlog: { data: RawData; isBinary: boolean; cost: number }[] = [];
  private backlogBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    rate: Rate,
    private readonly ws: WebSocket,
    /** Most bytes that may wait; past it (or MAX_BACKLOG_FRAMES) `onFlood` runs. */
    private readonly maxBacklogBytes: number,
    private readonly handle: (data: RawData, isBinary: boolean) => void,
    private readonly onFlood: () => void,
  ) {
    this.bucket = new TokenBucket(rate);
  }

  offer(data: RawData, isBinary: boolean): void {
    if (this.stopped) return;
    const cost = frameCost(rawLength(data));
    if (this.backlog.length === 0 && this.bucket.tryTake(cost)) return this.handle(data, isBinary);
    this.backlog.push({ data, isBinary, cost });
    this.backlogBytes += rawLength(data);
    if (this.backlog.length > MAX_BACKLOG_FRAMES || this.backlogBytes > this.maxBacklogBytes) {
      this.stop();
      return this.onFlood();
    }
    this.waitForBudget();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.backlog.length = 0;
  }

  private waitForBudget(): void {
    if (this.timer || this.backlog.length === 0) return;
    this.ws.pause();
    this.timer = setTimeout(() => {
      this.timer = null;
      while (this.backlog.length > 0 && !this.stopped && this.bucket.tryTake(this.backlog[0].cost)) {
        const next = this.backlog.shift()!;
        this.backlogBytes -= rawLength(next.data);
        this.handle(next.data, next.isBinary);
      }
      if (this.stopped) return;
      if (this.backlog.length > 0) return this.waitForBudget();
      this.ws.resume();
    }, this.bucket.waitMs(this.backlog[0].cost));
  }
}
