import {
  AskdockError,
  clampTimeoutMs,
  type Params,
  type Result,
  type SecretOutcome,
  type SecretRequestRecord,
} from '../../protocol/index.ts';
import type { Authenticator, Identity } from '../auth.ts';
import type { RoomParts } from '../sessions/room-parts.ts';
import type { Tx } from '../hub/hub.ts';
import { newId } from '../infra/ids.ts';
import { questionAudience } from '../questions/question-records.ts';
import { answeredBy } from '../questions/question-reply-record.ts';
import { defaultSurface } from '../questions/surface.ts';
import { ExpiryScheduler } from '../questions/question-timers.ts';
import { askSession, requireMayAsk } from '../runs/run-authority.ts';
import type { EventAudience, RunRow, StoredSecretRequest } from '../store/types.ts';
import { canAnswerQuestion, canSeeQuestion, forbidden } from '../sessions/visibility.ts';
import type { SecretBox } from './secret-box.ts';
import { SecretWaiters } from './secret-waiters.ts';
import type { Cancellation } from '../hub/waiters.ts';

/** E1/E3 for K1: what secrets use of the routing room (set once it is built). */
export type SecretRouting = {
  routeNewSecret(identity: Identity, record: StoredSecretRequest): Promise<StoredSecretRequest>;
  requireEligible(identity: Identity, r: StoredSecretRequest): void;
  noted(r: StoredSecretRequest): void;
};

type Outcome = { status: SecretOutcome; resolvedBy?: SecretRequestRecord['resolvedBy']; reason?: string };

/** Secret requests follow question visibility (A3/A4/A6) as privileged questions: answerers with every-question scopes and the asker. */
export const asQuestion = (r: Pick<SecretRequestRecord, 'sessionKey' | 'askedBy'>) => ({ sessionKey: r.sessionKey, askedBy: r.askedBy, privileged: true });

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
/** Q5 for K1: a request already ended answers QUESTION_ALREADY_TERMINAL with its status. */
function alreadyEnded(r: StoredSecretRequest): AskdockError {
  return new AskdockError('QUESTION_ALREADY_TERMINAL', `secret request "${r.id}" is already ${r.status}`, { details: { id: r.id, status: r.status, name: r.name } });
}

export class SecretManager {
  private readonly waiters: SecretWaiters;
  private readonly expiry: ExpiryScheduler;
  /** Set once the routing room is built (Core). */
  routing: SecretRouting | null = null;

  constructor(
    private readonly parts: RoomParts & { auth: Pick<Authenticator, 'displayName'> },
    private readonly box: SecretBox,
  ) {
    this.waiters = new SecretWaiters(parts.clock);
    this.expiry = new ExpiryScheduler(
      parts.clock,
      async () => {
        let next: number | null = null;
        for (const r of await parts.store.listSecretRequests({ status: 'pending' })) if (next === null || r.expiresAtMs < next) next = r.expiresAtMs;
        return next;
      },
      async (now) => {
        try {
          const due = (await parts.store.listSecretRequests({ status: 'pending' })).filter((r) => r.expiresAtMs <= now);
          if (due.length > 0)
            await parts.hub.commit(async (tx) => {
              for (const r of due) await this.finishIn(tx, r, { status: 'expired' });
            });
          return true;
        } catch (err) {
          parts.log.error({ err }, 'expiring secret requests failed');
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

  private async owner(r: Pick<SecretRequestRecord, 'sessionKey'>): Promise<string | undefined> {
    return r.sessionKey === undefined ? undefined : await this.parts.access.ownerOf(r.sessionKey);
  }

  private async visible(identity: Identity, id: string): Promise<StoredSecretRequest> {
    const r = await this.parts.store.getSecretRequest(id);
    if (!r || !canSeeQuestion(identity, asQuestion(r), await this.owner(r)))
      throw new AskdockError('SECRET_NOT_FOUND', `no secret request "${id}"`, { details: { id } });
    return r;
  }

  async request(identity: Identity, clientId: string, p: Params<'secret.request'>): Promise<Result<'secret.request'>> {
    const where = 'secret.request';
    requireMayAsk(identity, where);
    const sessionKey = await askSession(this.parts, identity, where, p);
    const now = this.parts.clock.now();
    const asked: StoredSecretRequest = {
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
    const record = await this.parts.hub.commit(async (tx) => {
      const record = this.routing ? await this.routing.routeNewSecret(identity, asked) : asked;
      await this.parts.store.insertSecretRequest(record);
      await tx.emit('secret.requested', { request: toPublic(record) }, secretAudience(record));
      return record;
    });
    this.expiry.noteExpiry(record.expiresAtMs);
    this.routing?.noted(record);
    return { id: record.id, expiresAtMs: record.expiresAtMs };
  }

  /**
   * Stores the value sealed, or skips; the result names the secret and never carries the value. E7: who did it, and
   * where (the params' `surface`, else the connection's), goes with `secret.resolved`.
   */
  async provide(identity: Identity, p: Params<'secret.provide'>, surface?: string): Promise<Result<'secret.provide'>> {
    const r = await this.visible(identity, p.id);
    if (!canAnswerQuestion(identity, asQuestion(r), await this.owner(r)))
      throw forbidden(`providing secret "${r.name}"`, ['operator.admin', 'operator.questions'], identity);
    if (r.status !== 'pending') throw alreadyEnded(r);
    // E3/E12: a routed request waits for those notified so far (and admins); a skip is an answer too.
    this.routing?.requireEligible(identity, r);
    const atMs = this.parts.clock.now();
    const resolvedBy = answeredBy(this.parts, identity, p.surface ?? surface ?? defaultSurface(identity), atMs);
    const ciphertext = 'skip' in p ? null : this.box.seal(r.name, p.value);
    await this.parts.hub.commit(async (tx) => {
      // Q5/D3: read again where it is written (locked on PostgreSQL): another provide, an expiry or an escalation step
      // (on this gateway or another) may have ended or moved it since; the first to commit wins, never both.
      const now = await this.parts.store.getSecretRequest(r.id);
      if (!now || now.status !== 'pending') throw alreadyEnded(now ?? r);
      this.routing?.requireEligible(identity, now);
      if (ciphertext === null) return this.finishIn(tx, now, { status: 'skipped', resolvedBy });
      await this.parts.store.putSecret({ owner: now.askedBy, name: now.name, ciphertext, storedBy: identity.id, requestId: now.id, storedAtMs: atMs });
      await this.finishIn(tx, now, { status: 'stored', resolvedBy });
    });
    return { status: ciphertext === null ? 'skipped' : 'stored', name: r.name };
  }

  async waitResult(identity: Identity, p: Params<'secret.waitResult'>, cancellation: Cancellation) {
    // An outcome heard while the request is read (e.g. provided on another gateway) is caught, not lost before the wait.
    const early = this.waiters.expect(p.id);
    try {
      const r = await this.visible(identity, p.id);
      if (r.askedBy !== identity.id)
        throw new AskdockError('FORBIDDEN', `only the agent that asked for secret "${r.name}" may wait for it`, { details: { id: r.id } });
      const heard = early.outcome();
      return this.waiters.wait(heard && r.status === 'pending' ? heard : r, p.timeoutMs, cancellation);
    } finally {
      early.done();
    }
  }

  /** D2: an event committed by any gateway (shared store): wake this gateway's waiters for a request ended elsewhere. */
  heard(event: string, payload: unknown): void {
    if (event === 'secret.resolved') this.waiters.heard(payload as { id: string; name: string; status: StoredSecretRequest['status'] });
  }

  /** The asker gives up (an aborted tool call): the prompt leaves every dock. */
  async cancel(identity: Identity, p: Params<'secret.cancel'>): Promise<Result<'secret.cancel'>> {
    const r = await this.visible(identity, p.id);
    if (r.askedBy !== identity.id)
      throw new AskdockError('FORBIDDEN', `only the agent that asked for secret "${r.name}" may cancel it`, { details: { id: r.id } });
    if (r.status === 'pending') (await this.parts.hub.commit(async (tx) => this.finishIn(tx, r, { status: 'cancelled', reason: p.reason ?? 'cancelled' })));
    return { status: (await this.parts.store.getSecretRequest(r.id))?.status ?? r.status, name: r.name };
  }

  /**
   * K1: scope agent.secrets (checked by dispatch) reads a stored value by name: its own, the one given to a request
   * it made. Another identity's secret of that name does not exist for it (A4: SECRET_NOT_FOUND, as if none were stored).
   */
  async get(identity: Identity, name: string): Promise<Result<'secret.get'>> {
    const stored = await this.parts.store.getSecret(identity.id, name);
    if (!stored)
      throw new AskdockError('SECRET_NOT_FOUND', `no secret named "${name}" is stored: ask for it with secret.request`, { details: { name } });
    return { value: this.box.open(stored.name, stored.ciphertext) };
  }

  async list(identity: Identity, p: Params<'secret.list'>): Promise<Result<'secret.list'>> {
    const rows: StoredSecretRequest[] = [];
    for (const r of await this.parts.store.listSecretRequests(p.status !== undefined ? { status: p.status } : {}))
      if (canSeeQuestion(identity, asQuestion(r), await this.owner(r))) rows.push(r);
    return { requests: rows.map(toPublic) };
  }

  async pendingFor(identity: Identity): Promise<SecretRequestRecord[]> {
    return (await this.list(identity, { status: 'pending' })).requests;
  }

  /** Like its blocking questions (Q7), a run's pending secret requests end with it. */
  async onRunEnded(tx: Tx, run: RunRow): Promise<void> {
    for (const r of await this.parts.store.listSecretRequests({ status: 'pending' }))
      if (r.runId === run.runId) (await this.finishIn(tx, r, { status: 'cancelled', reason: 'run-ended' }));
  }

  async finishIn(tx: Tx, r: StoredSecretRequest, outcome: Outcome): Promise<void> {
    const done: StoredSecretRequest = { ...r, ...outcome };
    await this.parts.store.updateSecretRequest(done);
    await tx.emit(
      'secret.resolved',
      {
        id: done.id,
        ...(done.sessionKey !== undefined ? { sessionKey: done.sessionKey } : {}),
        name: done.name,
        status: outcome.status,
        ...(outcome.resolvedBy ? { resolvedBy: outcome.resolvedBy } : {}),
      },
      secretAudience(done),
    );
    tx.after(() => this.waiters.wake(done));
  }
}
