import type { RawData, WebSocket } from 'ws';
import { frameCost, TokenBucket, type Rate } from '../infra/rate-limit.ts';
import { processTurnBudget, type TurnBudget } from './turn-budget.ts';

/** Frames read but not yet paid for, at most; a client this far ahead is flooding, not bursting. */
const MAX_BACKLOG_FRAMES = 10_000;

export function rawLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data.byteLength;
}

/**
 * Frames are paid for before they are parsed, before login too: past the budget the socket is paused (TCP pushes back
 * on the sender) and what was already read waits its turn, unparsed, so a flood costs the event loop no parsing. The
 * same holds past the frames one event-loop turn may handle (TurnBudget, S5): the rest wait for a later turn.
 */
export class FrameGate {
  private readonly bucket: TokenBucket;
  private readonly backlog: { data: RawData; isBinary: boolean; cost: number; bytes: number }[] = [];
  private backlogBytes = 0;
  /** Cancels the drain waiting for tokens or for a later turn, while one does. */
  private waiting: (() => void) | null = null;
  private stopped = false;

  constructor(
    rate: Rate,
    private readonly ws: WebSocket,
    /** Most bytes that may wait; past it (or MAX_BACKLOG_FRAMES) `onFlood` runs. */
    private readonly maxBacklogBytes: number,
    private readonly handle: (data: RawData, isBinary: boolean) => void,
    private readonly onFlood: () => void,
    private readonly turn: TurnBudget = processTurnBudget,
  ) {
    this.bucket = new TokenBucket(rate);
  }

  offer(data: RawData, isBinary: boolean): void {
    if (this.stopped) return;
    const bytes = rawLength(data);
    const cost = frameCost(bytes);
    if (this.backlog.length === 0 && this.turn.allows(bytes) && this.bucket.tryTake(cost)) return this.pass(data, isBinary, bytes);
    this.backlog.push({ data, isBinary, cost, bytes });
    this.backlogBytes += bytes;
    if (this.backlog.length > MAX_BACKLOG_FRAMES || this.backlogBytes > this.maxBacklogBytes) {
      this.stop();
      return this.onFlood();
    }
    this.drainLater();
  }

  stop(): void {
    this.stopped = true;
    this.waiting?.();
    this.waiting = null;
    this.backlog.length = 0;
  }

  private pass(data: RawData, isBinary: boolean, bytes: number): void {
    this.turn.take(bytes);
    this.handle(data, isBinary);
  }

  /** Pauses the socket and drains the backlog in a later turn, or once its first frame can be paid for. */
  private drainLater(): void {
    if (this.waiting || this.backlog.length === 0) return;
    this.ws.pause();
    const drain = () => {
      this.waiting = null;
      this.drain();
    };
    const first = this.backlog[0];
    // Held back by this turn's budget: the next turn; else by the frame rate: once the tokens are there.
    if (!this.turn.allows(first.bytes)) this.waiting = this.turn.later(drain);
    else {
      const timer = setTimeout(drain, this.bucket.waitMs(first.cost));
      this.waiting = () => clearTimeout(timer);
    }
  }

  private drain(): void {
    while (this.backlog.length > 0 && !this.stopped && this.turn.allows(this.backlog[0].bytes) && this.bucket.tryTake(this.backlog[0].cost)) {
      const next = this.backlog.shift()!;
      this.backlogBytes -= next.bytes;
      this.pass(next.data, next.isBinary, next.bytes);
    }
    if (this.stopped) return;
    if (this.backlog.length > 0) return this.drainLater();
    this.ws.resume();
  }
}
