import type { Clock } from '../infra/clock.ts';

/**
 * Q10 decides by time which came first: a run's start against the asking run's end or a reminder's retirement, a
 * user message against a question. A script makes these steps back to back, often within one millisecond, and a tie
 * would then never retire a reminder. What this process has already recorded happened before what it records next,
 * so these stamps keep that order: a run starts after every run end and retirement recorded so far; an end or a
 * retirement is no earlier than every start recorded so far (so a run that overlapped it ties, and a tie never
 * retires); a message comes after every question created so far, and a question is no earlier than every message; a
 * reminder retired again gets a newer time. A stamp is ahead of the clock only by as many of these steps as fell
 * within one millisecond.
 */
export class OrderStamps {
  private lastStartMs = 0;
  private lastEndMs = 0;
  private lastQuestionMs = 0;
  private lastMessageMs = 0;

  constructor(private readonly clock: Clock) {}

  /** A run's start: after every end and retirement already recorded. */
  runStarted(): number {
    const t = Math.max(this.clock.now(), this.lastEndMs + 1);
    if (t > this.lastStartMs) this.lastStartMs = t;
    return t;
  }

  /** A run's end: no earlier than its own start, nor than any start already recorded. */
  runEnded(startedAtMs: number): number {
    return this.end(Math.max(this.clock.now(), startedAtMs, this.lastStartMs));
  }

  /** A reminder's retirement: no earlier than any end or start already recorded, and after its previous retirement. */
  retired(previousMs: number | undefined): number {
    return this.end(Math.max(this.clock.now(), this.lastEndMs, this.lastStartMs, previousMs === undefined ? 0 : previousMs + 1));
  }

  /** A question's creation: no earlier than any message already created (a tie, which never retires). */
  questionCreated(): number {
    const t = Math.max(this.clock.now(), this.lastMessageMs);
    if (t > this.lastQuestionMs) this.lastQuestionMs = t;
    return t;
  }

  /** A message's creation: after every question already created. */
  messageCreated(): number {
    const t = Math.max(this.clock.now(), this.lastQuestionMs + 1);
    if (t > this.lastMessageMs) this.lastMessageMs = t;
    return t;
  }

  private end(t: number): number {
    if (t > this.lastEndMs) this.lastEndMs = t;
    return t;
  }
}
