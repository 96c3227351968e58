/**
 * X5: the proxy's elicitations wait in one line and are asked one at a time, in the order the wrapped server sent
 * them. Its session holds one blocking question at a time (Q11): asking them all at once would have each one that
 * lost the turn ask again after every answer, and take its turn in whatever order the retries happened to land.
 */
import { abortError, raceAbort } from './sdk-ask.ts';

export class ElicitationQueue {
  private tail: Promise<void> = Promise.resolve();

  /**
   * Runs `ask` once every elicitation queued before it has ended. One whose signal aborts while it waits leaves the
   * line at once (an AbortError) and is never asked; the ones behind it keep their places.
   */
  run<T>(signal: AbortSignal, ask: () => Promise<T>): Promise<T> {
    const turn = this.tail.then(() => (signal.aborted ? Promise.reject(abortError(signal)) : ask()));
    this.tail = turn.then(
      () => undefined,
      () => undefined,
    );
    return raceAbort(turn, signal);
  }
}
