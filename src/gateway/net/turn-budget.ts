/** Frames all sockets together may have handled in one event-loop turn before the rest wait for the next. */
export const FRAMES_PER_TURN = 32;
/** Bytes of frames all sockets together may have handled in one turn (a larger frame alone still goes, in a turn of its own). */
export const FRAME_BYTES_PER_TURN = 256 * 1024;

/**
 * S5: bounds the frame work of one event-loop turn, gateway-wide. One read of a socket can carry a hundred frames, and
 * several sockets are read in the same turn: handled at once, they hold up everything else (a /healthz answer, other
 * clients) for as long as they take. A frame past the budget waits for a later turn (`later`), once the budget is
 * refilled; the first frame of a turn always goes, whatever its size, so every frame is handled eventually.
 */
export class TurnBudget {
  private frames = 0;
  private bytes = 0;
  private refill: NodeJS.Immediate | null = null;
  /** How many turns that handled frames have ended: a frame handled now belongs to turn `ended`. */
  ended = 0;

  constructor(
    readonly maxFrames = FRAMES_PER_TURN,
    readonly maxBytes = FRAME_BYTES_PER_TURN,
  ) {}

  /** Whether a frame of `bytes` may still be handled in this turn. */
  allows(bytes: number): boolean {
    return this.frames === 0 || (this.frames < this.maxFrames && this.bytes + bytes <= this.maxBytes);
  }

  /** Counts a frame handled in this turn. */
  take(bytes: number): void {
    this.frames++;
    this.bytes += bytes;
    // Queued before any `later` of this turn, so what waits for the next turn finds the budget full again.
    this.refill ??= setImmediate(() => {
      this.refill = null;
      this.frames = this.bytes = 0;
      this.ended++;
    });
  }

  /** Runs `fn` in a later turn, after the budget was refilled; the returned function cancels it. */
  later(fn: () => void): () => void {
    const at = setImmediate(fn);
    return () => clearImmediate(at);
  }
}

/** The process's one event loop: every gateway's sockets in this process share its turns. */
export const processTurnBudget = new TurnBudget();
