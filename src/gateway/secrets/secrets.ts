import {
  AskdockError,
  clampTimeoutMs,
  type Params,
  type Result,
  type SecretOutcome,
  type SecretRequestRecord,
} from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { Core } from '../core.ts';
import type { Tx } from '../hub.ts';
import { newId } from '../ids.ts';
import { questionAudience } from '../question-records.ts';
import { ExpiryScheduler } from '../question-timers.ts';
import { askSession, requireMayAsk } from '../run-authority.ts';
import type { EventAudience, RunRow, StoredSecretRequest } from '../store/types.ts';
import { canAnswerQuestion, canSeeQuestion, forbidden } from '../visibility.ts';
import type { SecretBox } from './secret-box.ts';
import { SecretWaiters } from './secret-waiters.ts';
import type { Cancellation } from '../waiters.ts';

type Outcome = { status: SecretOutcome; resolvedBy?: SecretRequestRecord['resolvedBy']; reason?: string };

/** Secret requests follow question visibility (A3/A4/A6) as privileged questions: answerers with every-question scopes and the asker. */
const asQuestion = (r: Pick<SecretRequestRecord, 'sessionKey' | 'askedBy'>) => ({ sessionKey: r.sessionKey, askedBy: r.askedBy, privileged: true });

export function secretAudience(r: Pick<SecretRequestRecord, 'sessionKey' | 'askedBy'>): EventAudience {
  return questionAudience(asQuestion(r));
}

function toPublic(r: StoredSecretRequest): SecretRequestRecord {
  const { askerClientId: _cid, ...record } = r;
  return record;
}

/**
 * K1: secret requests, their masked answers and the encrypted values. A value exists in the clear only inside
 * `provide` (to seal it) and `get` (to hand it to an agent.secrets caller): never in a record, event, log or error.
 */
export class SecretManager {
  private readonly waiters: SecretWaiters;
  private readonly expiry: ExpiryScheduler;

  constructor(
    private readonly core: Core,
    private readonly box: SecretBox,
  ) {
    this.waiters = new SecretWaiters(core.clock);
    this.expiry = new ExpiryScheduler(
      core.clock,
      () => {
        let next: number | null = null;
        for (const r of core.store.listSecretRequests({ status: 'pending' })) if (next === null || r.expiresAtMs < next) next = r.expiresAtMs;
        return next;
      },
      (now) => {
        try {
          const due = core.store.listSecretRequests({ status: 'pending' }).filter((r) => r.expiresAtMs <= now);
          if (due.length > 0) core.hub.commit((tx) => due.forEach((r) => this.finishIn(tx, r, { status: 'expired' })));
          return true;
        } catch (err) {
          core.opts.log.error({ err }, 'expiring secret requests failed');
          return false;
        }
      },
    );
  }

  start(): void {
    this.expiry.start();
  }

  stop(): void {
    this.expiry.stop();
  }

  private owner(r: Pick<SecretRequestRecord, 'sessionKey'>): string | undefined {
    return r.sessionKey === undefined ? undefined : this.core.ownerOf(r.sessionKey);
  }

  private visible(identity: Identity, id: string): StoredSecretRequest {
    const r = this.core.store.getSecretRequest(id);
    if (!r || !canSeeQuestion(identity, asQuestion(r), this.owner(r)))
      throw new AskdockError('SECRET_NOT_FOUND', `no secret request "${id}"`, { details: { id } });
    return r;
  }

  request(identity: Identity, clientId: string, p: Params<'secret.request'>): Result<'secret.request'> {
    const where = 'secret.request';
    requireMayAsk(identity, where);
    const sessionKey = askSession(this.core, identity, where, p);
    const now = this.core.clock.now();
    const record: StoredSecretRequest = {
      id: newId('k'),
      name: p.name,
      description: p.description,
      ...(sessionKey !== undefined ? { sessionKey } : {}),
      ...(p.runId !== undefined ? { runId: p.runId } : {}),
      askedBy: identity.id,
      createdAtMs: now,
      expiresAtMs: now + clampTimeoutMs(p.timeoutMs),
      status: 'pending',
      askerClientId: clientId,
    };
    this.core.hub.commit((tx) => {
      this.core.store.insertSecretRequest(record);
      tx.emit('secret.requested', { request: toPublic(record) }, secretAudience(record));
    });
    this.expiry.noteExpiry(record.expiresAtMs);
    return { id: record.id, expiresAtMs: record.expiresAtMs };
  }

  /** Stores the value sealed, or skips; the result names the secret and never carries the value. */
  provide(identity: Identity, p: Params<'secret.provide'>): Result<'secret.provide'> {
    const r = this.visible(identity, p.id);
    if (!canAnswerQuestion(identity, asQuestion(r), this.owner(r)))
      throw forbidden(`providing secret "${r.name}"`, ['operator.admin', 'operator.questions'], identity);
    if (r.status !== 'pending')
      throw new AskdockError('QUESTION_ALREADY_TERMINAL', `secret request "${r.id}" is already ${r.status}`, {
        details: { id: r.id, status: r.status, name: r.name },
      });
    const atMs = this.core.clock.now();
    const resolvedBy = { identity: identity.id, surface: p.surface ?? 'control-ui', atMs };
    if ('skip' in p) {
      this.core.hub.commit((tx) => this.finishIn(tx, r, { status: 'skipped', resolvedBy }));
      return { status: 'skipped', name: r.name };
    }
    const ciphertext = this.box.seal(r.name, p.value);
    this.core.hub.commit((tx) => {
      this.core.store.putSecret({ name: r.name, ciphertext, storedBy: identity.id, requestId: r.id, storedAtMs: atMs });
      this.finishIn(tx, r, { status: 'stored', resolvedBy });
    });
    return { status: 'stored', name: r.name };
  }

  waitResult(identity: Identity, p: Params<'secret.waitResult'>, cancellation: Cancellation) {
    const r = this.visible(identity, p.id);
    if (r.askedBy !== identity.id)
      throw new AskdockError('FORBIDDEN', `only the agent that asked for secret "${r.name}" may wait for it`, { details: { id: r.id } });
    return this.waiters.wait(r, p.timeoutMs, cancellation);
  }

  /** The asker gives up (an aborted tool call): the prompt leaves every dock. */
  cancel(identity: Identity, p: Params<'secret.cancel'>): Result<'secret.cancel'> {
    const r = this.visible(identity, p.id);
    if (r.askedBy !== identity.id)
      throw new AskdockError('FORBIDDEN', `only the agent that asked for secret "${r.name}" may cancel it`, { details: { id: r.id } });
    if (r.status === 'pending') this.core.hub.commit((tx) => this.finishIn(tx, r, { status: 'cancelled', reason: p.reason ?? 'cancelled' }));
    return { status: this.core.store.getSecretRequest(r.id)?.status ?? r.status, name: r.name };
  }

  /** K1: scope agent.secrets (checked by dispatch) reads a stored value by name. */
  get(name: string): Result<'secret.get'> {
    const stored = this.core.store.getSecret(name);
    if (!stored)
      throw new AskdockError('SECRET_NOT_FOUND', `no secret named "${name}" is stored: ask for it with secret.request`, { details: { name } });
    return { value: this.box.open(stored.name, stored.ciphertext) };
  }

  list(identity: Identity, p: Params<'secret.list'>): Result<'secret.list'> {
    const rows = this.core.store
      .listSecretRequests(p.status !== undefined ? { status: p.status } : {})
      .filter((r) => canSeeQuestion(identity, asQuestion(r), this.owner(r)));
    return { requests: rows.map(toPublic) };
  }

  pendingFor(identity: Identity): SecretRequestRecord[] {
    return this.list(identity, { status: 'pending' }).requests;
  }

  /** Like its blocking questions (Q7), a run's pending secret requests end with it. */
  onRunEnded(tx: Tx, run: RunRow): void {
    for (const r of this.core.store.listSecretRequests({ status: 'pending' }))
      if (r.runId === run.runId) this.finishIn(tx, r, { status: 'cancelled', reason: 'run-ended' });
  }

  private finishIn(tx: Tx, r: StoredSecretRequest, outcome: Outcome): void {
    const done: StoredSecretRequest = { ...r, ...outcome };
    this.core.store.updateSecretRequest(done);
    tx.emit(
      'secret.resolved',
      { id: done.id, ...(done.sessionKey !== undefined ? { sessionKey: done.sessionKey } : {}), name: done.name, status: outcome.status },
      secretAudience(done),
    );
    tx.after(() => this.waiters.wake(done));
  }
}
