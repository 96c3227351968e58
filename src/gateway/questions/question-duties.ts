import type { Identity } from '../auth.ts';
import type { Core } from '../core.ts';
import { SharedPresence } from '../sessions/shared-presence.ts';
import type { StoredQuestion } from '../store/types.ts';
import type { QuestionOutcomes } from './question-outcomes.ts';
import { dutyTimer, RequesterPresence, type ExpiryScheduler } from './question-timers.ts';

/** Q7 and D3: a question's timers: its expiry, and the grace period of an asker that went away; the duty holder's sweeps. */
export class QuestionDuties {
  readonly expiry: ExpiryScheduler;
  readonly presence: RequesterPresence | SharedPresence;

  constructor(
    private readonly core: Core,
    requesterGraceMs: number,
    private readonly outcomes: QuestionOutcomes,
  ) {
    // Timer callbacks have no caller to report to: a failing store is logged, and expiry retries a second later.
    const log = (what: string, err: unknown) => core.opts.log.error({ err }, `${what} failed`);
    this.expiry = dutyTimer({
      clock: core.clock,
      log,
      // D3: only the gateway holding the duties expires; the others look again a second later.
      held: () => !core.duties || core.duties.held,
      next: { what: 'reading the next expiry', read: () => core.store.nextExpiryMs() },
      due: { what: 'expiring questions', run: (now) => this.expireDue(now) },
    });
    const giveUp = async (askedBy: string, clientId: string) => {
      try {
        await this.cancelInactive(askedBy, clientId);
      } catch (err) {
        log('cancelling the questions of an absent asker', err);
      }
    };
    const shared = core.cluster;
    this.presence = shared
      ? new SharedPresence(shared, core.clock, core.gatewayId, requesterGraceMs, () => this.pendingBlocking(), giveUp)
      : new RequesterPresence(core.clock, requesterGraceMs, async (askedBy, clientId) => (await this.blockingOf(askedBy, clientId)).length > 0, giveUp);
  }

  /** D3: the duty holder's turn (see duties.ts): sweep expiry at once after a takeover, then the absent askers. */
  async runDuties(justTaken: boolean): Promise<void> {
    if (justTaken) this.expiry.sweepNow();
    if (this.presence instanceof SharedPresence) (await this.presence.sweep(justTaken));
  }

  /** On gateway start: expire what ran out while down, and give every absent asker its grace period. */
  async start(): Promise<void> {
    this.expiry.start();
    for (const q of await this.core.store.listQuestions({ status: 'pending' })) {
      if (q.mode === 'blocking' && q.askerClientId) this.presence.startGrace(q.askedBy, q.askerClientId);
    }
  }

  stop(): void {
    this.expiry.stop();
    this.presence.stop();
  }

  /** Q7: the record turns expired at expiresAtMs, whether or not anyone waits. */
  private async expireDue(nowMs: number): Promise<void> {
    if ((await this.core.store.dueQuestions(nowMs)).length === 0) return;
    // Read again inside the transaction: another gateway may have resolved some meanwhile (D3).
    await this.core.hub.commit(async (tx) => {
      for (const q of await this.core.store.dueQuestions(nowMs)) await this.outcomes.finishIn(tx, q, { status: 'expired' });
    });
  }

  private async pendingBlocking(): Promise<StoredQuestion[]> {
    return (await this.core.store.listQuestions({ status: 'pending' })).filter((q) => q.mode === 'blocking');
  }

  private async blockingOf(askedBy: string, clientId: string): Promise<StoredQuestion[]> {
    return (await this.core.store.listQuestions({ status: 'pending' })).filter((q) => q.mode === 'blocking' && q.askedBy === askedBy && q.askerClientId === clientId);
  }

  /** Q7: the asking client stayed away for the whole grace period. */
  private async cancelInactive(askedBy: string, clientId: string): Promise<void> {
    if ((await this.blockingOf(askedBy, clientId)).length === 0) return;
    await this.core.hub.commit(async (tx) => {
      for (const q of await this.blockingOf(askedBy, clientId)) await this.outcomes.finishIn(tx, q, { status: 'cancelled', reason: 'requester-inactive' });
    });
  }

  async clientConnected(identity: Identity, clientId: string): Promise<void> {
    await this.presence.connected(identity.id, clientId);
  }

  async clientDisconnected(identity: Identity, clientId: string): Promise<void> {
    await this.presence.disconnected(identity.id, clientId);
  }
}
