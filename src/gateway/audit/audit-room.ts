import { AskdockError, type Params, type Result } from '../../protocol/index.ts';
import type { DatedKey } from '../../audit/index.ts';
import type { Identity } from '../auth.ts';
import type { TimerHandle } from '../infra/clock.ts';
import type { Duties } from '../infra/duties.ts';
import { ADMINS } from '../policy/grant-answers.ts';
import { forbidden } from '../sessions/visibility.ts';
import type { RoomParts } from '../sessions/room-parts.ts';
import type { KeptAnswerInput, NewAuditEntry } from '../store/audit-rows.ts';
import { AuditLog, IntegrityError, type Integrity } from './audit-log.ts';
import { AuditExports } from './audit-export.ts';

/** A signed checkpoint note's tree size (its second line, C2SP signed note); 0 without one. */
const signedSize = (note: string | null): number => (note ? Number(note.split('\n')[1]) : 0);
import { QuestionDigests } from './question-digests.ts';
import { LOST_RUNS_LISTED, lostSummary } from './lost-runs.ts';
import { ACK_META, acknowledgementValue, FAILED_META, newAcknowledgement, readAcknowledgement, readIntegrity, sameAcknowledgement, storeCheckpoint, type Acknowledgement, type Kept } from './audit-meta.ts';

/** L2: a checkpoint at least every this many entries, and at least this often while entries come in. */
export const CHECKPOINT_EVERY_ENTRIES = 256;
export const CHECKPOINT_EVERY_MS = 60_000;

export type AuditParts = RoomParts & { keys: DatedKey[] | null; origin: string; duties: () => Duties | null };

/**
 * The audit log's room (PRODUCT L1-L8, PROTOCOL L9): entries appended in the callers' transactions, the checkpoint
 * duty with its self-check, the admin's acknowledgement of a failed one, proofs and exports. Built with what it uses.
 */
export class AuditRoom {
  readonly log: AuditLog;
  /** L4: a question's digests, made when it is asked and used again for its decision. */
  readonly digests = new QuestionDigests();
  private readonly exports: AuditExports;
  private sinceCheckpoint = 0;
  /** A checkpoint the count called for is on its way: the entries appended until it signs are in it, not a duty more each. */
  private dutyCalled = false;
  private timer: TimerHandle | null = null;
  private signing: Promise<unknown> = Promise.resolve();
  /** L7: when the last full re-read of the log finished (the gateway's clock), and the acknowledgement it was made under. */
  private lastReread: { atMs: number; ack: Acknowledgement } | null = null;

  constructor(private readonly parts: AuditParts) {
    this.log = new AuditLog(parts.store, parts.keys, parts.origin);
    this.exports = new AuditExports(parts, this.log, () => this.signNow(true), async () => (await this.acknowledgement()).afterSerial, () => this.integrity());
  }

  get signed(): boolean {
    return this.log.signed;
  }

  /** The gateway's clock, for an entry recorded apart from a change (a push sent). */
  now(): number {
    return this.parts.clock.now();
  }

  /** L1: inside the caller's transaction: the entry with its index. */
  async record(entry: NewAuditEntry, kept?: KeptAnswerInput) {
    // An entry's time is whole milliseconds (L1), whatever clock the gateway runs on.
    const appended = await this.parts.store.appendAudit({ ...entry, atMs: Math.floor(entry.atMs) }, kept);
    this.appended();
    return appended;
  }

  /**
   * L1: as `record`, for an entry whose index the caller does not read: the store may write it with the transaction's
   * next statement (on PostgreSQL no round trip of its own).
   */
  async recordUnread(entry: NewAuditEntry): Promise<void> {
    await this.parts.store.appendAuditUnread({ ...entry, atMs: Math.floor(entry.atMs) });
    this.appended();
  }

  private appended(): void {
    if (++this.sinceCheckpoint < CHECKPOINT_EVERY_ENTRIES || this.dutyCalled) return;
    // The duty waits for its turn among the units (hub.exclusive), and the count stays past the mark until it signs.
    this.dutyCalled = true;
    queueMicrotask(() => void this.duty().finally(() => (this.dutyCalled = false)));
  }

  /** L7 at start: the self-check against every checkpoint; then the checkpoint duty every 60 s. */
  async start(): Promise<void> {
    await this.check();
    this.schedule();
  }

  stop(): void {
    if (this.timer) this.parts.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    this.timer = this.parts.clock.setTimeout(() => void this.duty().finally(() => this.timer && this.schedule()), CHECKPOINT_EVERY_MS);
  }

  /** D3: only the duty holder signs (one signer across gateways). */
  async duty(): Promise<void> {
    const duties = this.parts.duties();
    if (duties && !duties.held) return;
    try {
      await this.signNow();
    } catch (err) {
      this.parts.log.error({ err }, 'signing an audit checkpoint failed');
    }
  }

  /**
   * L2 with L7: signs a checkpoint over the log as read so far (the entries new since are read on), unless a failed
   * check waits for an admin. The whole log is read again first when `full` (an admin's sign, an export), when the
   * last full re-read finished CHECKPOINT_EVERY_MS or more ago, and after an acknowledgement this gateway did not see.
   */
  signNow(full = false): Promise<string | null> {
    // One unit among the others, with nothing uncommitted (hub.quiet): the entries it reads and the checkpoint it writes
    // never interleave with a unit's, and the checkpoint is stored in a transaction of its own; a failed check is told
    // to admins after it, in a unit of its own.
    const run = this.signing.then(async () => {
      const { note, problem, ack } = await this.parts.hub.quiet(() => this.signOnce(full));
      if (problem !== undefined) await this.failed(problem, ack!);
      return note;
    });
    this.signing = run.catch(() => undefined);
    return run;
  }

  private async signOnce(full: boolean, again = false): Promise<{ note: string | null; problem?: string; ack?: Acknowledgement }> {
    // The count starts again whatever becomes of this sign: while a failed check waits for an admin, the next try is a
    // checkpoint's worth of entries (or the timer) away, not the next entry.
    this.sinceCheckpoint = 0;
    if (!(await this.integrity()).ok) return { note: null };
    const ack = await this.acknowledgement();
    const last = this.lastReread;
    // The lines read before stand only under the acknowledgement they were read under: one since starts the log afresh.
    const sameStart = last !== null && sameAcknowledgement(last.ack, ack);
    const reread = full || !sameStart || this.parts.clock.now() - last.atMs >= CHECKPOINT_EVERY_MS;
    if (reread) {
      const result = await this.log.selfCheck(ack.afterSerial, false, sameStart);
      if (!result.ok) return { note: null, problem: result.detail, ack };
      this.lastReread = { atMs: this.parts.clock.now(), ack };
    }
    let kept = 'stored' as Kept;
    try {
      // Stored only if, in its transaction, no failed check waits and no acknowledgement came since `ack` (L7).
      const keep = async (c: Parameters<typeof storeCheckpoint>[1]) => (kept = await storeCheckpoint(this.parts.store, c, ack)) === 'stored';
      const note = await this.log.sign(this.parts.clock.now(), { afterSerial: ack.afterSerial, keep });
      // Overtaken by an acknowledgement (on any gateway): signed again, once, over the log it restarted.
      return kept === 'overtaken' && !again ? this.signOnce(true, true) : { note };
    } catch (err) {
      if (!(err instanceof IntegrityError)) throw err;
      // The lines read on do not extend the last checkpoint: the whole log is read again before a failure is told
      // (another gateway's acknowledgement may have started the log afresh meanwhile).
      return reread ? { note: null, problem: err.message, ack } : this.signOnce(true, again);
    }
  }

  private acknowledgement(): Promise<Acknowledgement> {
    return readAcknowledgement(this.parts.store);
  }

  /** L7: the failed check waiting for an admin, as the database holds it for every gateway of it. */
  private integrity(): Promise<Integrity> {
    return readIntegrity(this.parts.store);
  }

  /** L7 at start: the full re-read against every checkpoint; a mismatch is logged and told to admins, and holds the signing until acknowledged. */
  private async check(): Promise<boolean> {
    if (!(await this.integrity()).ok) return false;
    const ack = await this.acknowledgement();
    const result = await this.log.selfCheck(ack.afterSerial, true);
    if (!result.ok) await this.failed(result.detail, ack);
    else this.lastReread = { atMs: this.parts.clock.now(), ack };
    return result.ok;
  }

  /**
   * A failed check, found under the acknowledgement `ack`, is kept for every gateway and told to admins
   * once. One found by a read that an acknowledgement made meanwhile (on any gateway) has overtaken is dropped: the
   * log starts afresh from that acknowledgement, and the next check reads it so.
   */
  private async failed(detail: string, ack: Acknowledgement): Promise<void> {
    const current = await this.parts.hub.commit(async (tx) => {
      // The acknowledgement's key first: on PostgreSQL each key read in a transaction is locked (store getMeta), in the order `acknowledge` takes them.
      if (!sameAcknowledgement(await this.acknowledgement(), ack)) return false;
      if ((await this.integrity()).ok) {
        await this.parts.store.setMeta(FAILED_META, detail);
        await tx.emit('audit.integrity', { ok: false, detail }, ADMINS);
      }
      return true;
    });
    // Durable before it is read back: an admin's sign answers the integrity the database then holds (read on another connection).
    await new Promise<void>((ok) => this.parts.hub.whenDurable(() => ok()));
    if (current) this.parts.log.error({ detail }, 'the audit log does not match its signed checkpoints: no checkpoint is signed until an admin runs `askdock audit acknowledge`');
  }

  /** What admins see of the log's state (`audit.checkpoint`): the same on every gateway of the database. */
  async state(): Promise<{ ok: boolean; detail?: string; unsigned?: boolean }> {
    return { ...(await this.integrity()), ...(this.signed ? {} : { unsigned: true }) };
  }

  async checkpoint(identity: Identity, p: Params<'audit.checkpoint'>): Promise<Result<'audit.checkpoint'>> {
    if (p.sign && !identity.scopes.has('operator.admin')) throw forbidden('audit.checkpoint {sign:true}', ['operator.admin'], identity);
    if (p.sign && !this.signed) throw new AskdockError('AUDIT_KEY_MISSING', 'audit.checkpoint {sign:true}: this gateway has no usable audit key (audit: unsigned, L8), so it signs no checkpoint');
    const checkpoint = (p.sign ? await this.signNow(true) : null) ?? (await this.log.latest());
    // A4: others read the signed note's size, never the live count (entries of sessions they may not see) or the self-check.
    if (!identity.scopes.has('operator.admin')) return { checkpoint, treeSize: signedSize(checkpoint), ...(this.signed ? {} : { unsigned: true }) };
    return { checkpoint, treeSize: await this.size(), ...(this.signed ? {} : { unsigned: true }), integrity: await this.integrity() };
  }

  /** The entries stored; a log with a hole (a deleted row, L7) still answers how many rows it holds, so admins read the failed check. */
  private async size(): Promise<number> {
    try {
      return (await this.log.current()).size;
    } catch (err) {
      if (!(err instanceof IntegrityError)) throw err;
      return this.parts.store.auditSize();
    }
  }

  /** L9: an inclusion proof; others than admins prove against signed sizes only and are not told the self-check's detail (A4). */
  async proof(identity: Identity, p: Params<'audit.proof'>): Promise<Result<'audit.proof'>> {
    const admin = identity.scopes.has('operator.admin');
    const checkpoint = await this.log.latest();
    let tree: Awaited<ReturnType<AuditLog['current']>>;
    try {
      tree = await this.log.current();
    } catch (err) {
      if (!(err instanceof IntegrityError)) throw err;
      if (admin) throw new AskdockError('UNAVAILABLE', `audit.proof: the audit log failed its self-check (${err.message}); see \`askdock audit acknowledge\``, { retryable: false });
      throw new AskdockError('UNAVAILABLE', 'audit.proof: the audit log cannot be proven just now; an admin has been told', { retryable: false });
    }
    const signed = checkpoint ? signedSize(checkpoint) : 0;
    // A4: a non-admin's default is the signed size even with no checkpoint yet, so no refusal names the live count.
    const size = p.size ?? (checkpoint || !admin ? signed : tree.size);
    const limit = admin ? tree.size : Math.min(signed, tree.size);
    if (size > limit || p.index >= size)
      throw new AskdockError(
        'INVALID_REQUEST',
        admin
          ? `audit.proof: index ${p.index} must be below size ${size}, and size at most the log's ${tree.size} entries`
          : `audit.proof: index ${p.index} must be below size ${size}, and size at most the latest checkpoint's ${signed}`,
      );
    // L9: the checkpoint the proof leads to, so a receipt's holder can check it: the one signed at that size (one indexed
    // read; every checkpoint was the newest, which anyone may read, when it was signed), else the newest. Others than
    // admins ask only for sizes up to the newest signed one (above), so no live count is told.
    const at = size === signed ? checkpoint : ((await this.checkpointOfSize(size)) ?? checkpoint);
    return { index: p.index, treeSize: size, inclusion: tree.inclusionProof(p.index, size).map((h) => h.toString('base64')), checkpoint: at };
  }

  /** The signed note of a tree of `size` entries, among those that count since the last acknowledgement (L7): one indexed read. */
  private async checkpointOfSize(size: number): Promise<string | null> {
    const { afterSerial } = await this.acknowledgement();
    return (await this.parts.store.auditCheckpointOfSize(size, afterSerial))?.note ?? null;
  }

  /** L7: an admin acknowledges a failed check (itself an entry); checkpoints are signed again from the log as it is. */
  async acknowledge(identity: Identity, p: Params<'audit.acknowledge'>): Promise<Result<'audit.acknowledge'>> {
    const atMs = this.parts.clock.now();
    // Read and cleared in one transaction (on PostgreSQL the keys are locked as read): of two admins acknowledging
    // at once, on one gateway or two, the second reads nothing left to acknowledge.
    const entry = await this.parts.hub.commit(async (tx) => {
      await this.acknowledgement();
      const now = await this.integrity();
      if (now.ok) return null;
      // A row missing below the last one (a hole) is recorded as lost: an `audit.lost` entry at its index, so the tree's
      // leaves are 0, 1, 2, … again and checkpoints can be signed; the acknowledgement lists the indexes.
      const lost = await this.parts.store.fillAuditHoles({ atMs: Math.floor(atMs), event: 'audit.lost', identity: identity.id, detail: { reason: 'its stored row was missing when the failed check was acknowledged' } }, LOST_RUNS_LISTED);
      const losses = lostSummary(lost);
      const detail = { problem: now.detail, ...losses, ...(p.note ? { note: p.note } : {}) };
      const e = await this.record({ atMs, event: 'audit.acknowledged', identity: identity.id, detail });
      // The checkpoints stored so far are set aside: those stored after it (a larger serial) count. Every checkpoint is
      // stored with this key locked (storeCheckpoint), so none is stored meanwhile with a smaller one.
      const ack = newAcknowledgement(e.index, (await this.parts.store.latestAuditCheckpoint())?.serial ?? 0);
      await this.parts.store.setMeta(ACK_META, acknowledgementValue(ack));
      await this.parts.store.setMeta(FAILED_META, '');
      await tx.emit('audit.integrity', { ok: true }, ADMINS);
      return { index: e.index, losses, ack };
    });
    if (!entry) return { acknowledged: false };
    // The restart reads every line afresh: the full re-read the next checkpoints count 60 s from.
    await this.parts.hub.quiet(async () => {
      await this.log.restart(this.parts.clock.now(), async (c) => (await storeCheckpoint(this.parts.store, c, entry.ack)) === 'stored');
      this.lastReread = { atMs: this.parts.clock.now(), ack: entry.ack };
    });
    return { acknowledged: true, entryIndex: entry.index, ...entry.losses };
  }

  exportPage(identity: Identity, p: Params<'audit.export'>): Promise<Result<'audit.export'>> {
    return this.exports.page(identity, p);
  }
}
