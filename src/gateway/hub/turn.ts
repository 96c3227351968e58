import { AsyncResource } from 'node:async_hooks';
import type { Writable } from 'node:stream';

/** Sockets carrying only events released per loop iteration; the rest wait, corked, and gather more frames. */
export const EVENT_SOCKETS_PER_RELEASE = 16;

/**
 * The end of one event-loop turn, in two steps queued together so they run back to back in the turn's check phase:
 *  1. `settle`: the hub commits the turn's writes as one transaction, fans out their events and sends the answers
 *     that waited for it (R1, R3);
 *  2. release: settle again (for writes made by microtasks step 1 woke), then uncork held sockets, each in one
 *     system call: every socket carrying a response, then at most EVENT_SOCKETS_PER_RELEASE of those carrying only
 *     events, oldest first. The others stay corked for the next iteration, after new input was read, so a broadcast
 *     to many connections never holds up the next request, and under load each of them gets several frames per write.
 */
export class Turn {
  /** Held (corked) sockets in the order they were first held. */
  private readonly held = new Set<Writable>();
  /** Held sockets that carry a response to a request: released first, always in this iteration. */
  private readonly urgent = new Set<Writable>();
  private scheduled = false;
  private settle: () => unknown = () => {};
  /**
   * Where requests run in contexts of their own (a shared database, EventHub.request): the gateway's own context, so a
   * turn's end runs as no request, whichever request's write scheduled it. Elsewhere none, which costs nothing.
   */
  private readonly root: AsyncResource | null;

  constructor(
    private readonly eventSocketsPerRelease = EVENT_SOCKETS_PER_RELEASE,
    requestContexts = false,
  ) {
    this.root = requestContexts ? new AsyncResource('askdock.turn') : null;
  }

  /** The hub's commit-and-fan-out; set once, when the hub is made. */
  onSettle(settle: () => unknown): void {
    this.settle = settle;
  }

  /** Makes sure this iteration ends with a settle and a release. */
  touch(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    if (this.root) this.root.runInAsyncScope(this.schedule);
    else this.schedule();
  }

  private readonly schedule = () => {
    setImmediate(this.settleStep);
    setImmediate(this.releaseStep);
  };

  /** Call before writing to `socket`: it stays corked until a release; `response` puts it at the front. */
  hold(socket: Writable, response: boolean): void {
    this.touch();
    if (socket.destroyed) return;
    if (!this.held.has(socket)) {
      socket.cork();
      this.held.add(socket);
    }
    if (response) this.urgent.add(socket);
  }

  private readonly settleStep = () => void this.settle();

  private readonly releaseStep = () => {
    void this.settle();
    for (const socket of this.urgent) this.release(socket);
    this.urgent.clear();
    let budget = this.eventSocketsPerRelease;
    for (const socket of this.held) {
      if (budget-- <= 0) break;
      this.release(socket);
    }
    this.scheduled = false;
    if (this.held.size > 0) this.touch();
  };

  private release(socket: Writable): void {
    this.held.delete(socket);
    socket.uncork();
  }
}
