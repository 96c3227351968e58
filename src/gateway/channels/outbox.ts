import { ChannelApiError } from './types.ts';
import { backoffDelay } from '../../lib/backoff.ts';

export type OutboxOptions = {
  log: (line: string) => void;
  /** First retry delay; it doubles up to `maxDelayMs` (a platform's own `retry_after` wins). */
  baseDelayMs?: number;
  maxDelayMs?: number;
};

type Job = { key: string; run: () => Promise<void> };

/**
 * What a channel sends to its platform, one job at a time in order (an edit never overtakes its post).
 * A failed job is retried after the platform's `retry_after` or a growing delay, and never blocks the gateway:
 * everything here runs after the gateway's own work is saved. Only a permanent refusal drops a job (logged).
 */
export class ChannelOutbox {
  private readonly queue: Job[] = [];
  private readonly queued = new Set<string>();
  private running = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly opts: OutboxOptions) {}

  /** Adds a job unless one with the same key is already waiting (jobs read fresh state when they run). */
  enqueue(key: string, run: () => Promise<void>): void {
    if (this.stopped || this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push({ key, run });
    void this.pump();
  }

  /** Resolves once nothing is queued or running (tests, shutdown). */
  idle(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((done) => this.idleWaiters.push(done));
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    this.queue.length = 0;
    this.queued.clear();
    this.settleIdle();
  }

  private settleIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const done of waiters) done();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((done) => {
      this.wake = done;
      this.timer = setTimeout(done, ms);
    });
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    let failures = 0;
    const base = this.opts.baseDelayMs ?? 1000;
    const max = this.opts.maxDelayMs ?? 30_000;
    while (!this.stopped && this.queue.length > 0) {
      const job = this.queue[0];
      // From here on a new enqueue of the same key queues again: what changed meanwhile is not lost.
      this.queued.delete(job.key);
      try {
        await job.run();
      } catch (err) {
        const apiErr = err instanceof ChannelApiError ? err : undefined;
        if (!apiErr?.permanent) {
          failures++;
          const delay = apiErr?.retryAfterMs ?? backoffDelay(failures, { initialMs: base, maxMs: max });
          this.opts.log(`${job.key} failed (attempt ${failures}: ${(err as Error).message}); retrying in ${delay} ms`);
          await this.sleep(delay);
          continue;
        }
        this.opts.log(`${job.key} refused by the platform, not retried: ${apiErr.message}`);
      }
      failures = 0;
      this.queue.shift();
    }
    this.running = false;
    this.settleIdle();
  }
}
