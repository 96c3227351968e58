import type { Clock } from './clock.ts';

/**
 * Q10 decides by time which came first: a run's start against the asking run's end or a reminder's retirement, a
 * user message against a question. A script makes these steps back to back, often within one millisecond, and a tie
 * would then never retire a reminder. What this process has already recorded happened before what it records next,
 * so these stamps keep that order strictly: a run starts after every run end and retirement recorded so far, ends no
 * earlier than it started, a message comes after every question created so far, and a reminder retired again gets a
 * newer time. A stamp is ahead of the clock only by as many of these steps as fell within one millisecond; two steps
 * that raced (a run that overlapped the asking one) still tie, and a tie never retires.
 */
export class OrderStamps {
  private lastEndMs = 0;
  private lastQuestionMs = 0;

  constructor(private readonly clock: Clock) {}

  /** A run's start: after every end and retirement already recorded. */
  runStarted(): number {
    return Math.max(this.clock.now(), this.lastEndMs + 1);
  }

  /** A run's end, no earlier than its start. */
  runEnded(startedAtMs: number): number {
    return this.end(Math.max(this.clock.now(), startedAtMs));
  }

  /** A reminder's retirement: no earlier than the end that retired it, and after its previous retirement. */
  retired(previousMs: number | undefined): number {
    return this.end(Math.max(this.clock.now(), this.lastEndMs, previousMs === undefined ? 0 : previousMs + 1));
  }

  /** A question's creation. */
  questionCreated(): number {
    const t = this.clock.now();
    if (t > this.lastQuestionMs) this.lastQuestionMs = t;
    return t;
  }

  /** A message's creation: after every question already created. */
  messageCreated(): number {
    return Math.max(this.clock.now(), this.lastQuestionMs + 1);
  }

  private end(t: number): number {
    if (t > this.lastEndMs) this.lastEndMs = t;
    return t;
  }
}
