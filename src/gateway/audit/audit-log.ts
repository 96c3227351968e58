import { leafHash, MerkleTree, openNote, parseCheckpoint, signCheckpoint, signerOf, verifyConsistency, type DatedKey } from '../../audit/index.ts';
import type { AuditCheckpointRow, NewAuditCheckpoint } from '../store/audit-rows.ts';
import type { Store } from '../store/types.ts';

/** L7: what the self-check found. */
export type Integrity = { ok: true } | { ok: false; detail: string };

const bodyOf = (note: string) => note.split('\n\n')[0] + '\n';

/** L7: the stored lines the self-check reads and hashes between two turns of the event loop. */
export const CHECK_CHUNK = 1024;
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The smallest checkpoint the tree does not match, as a failed check. Checkpoints stored before an admin acknowledged
 * a failed check (serial `afterSerial` or less) are not checked again (L7).
 */
function firstFailure(checkpoints: AuditCheckpointRow[], tree: MerkleTree, afterSerial: number): Integrity | undefined {
  for (const { note, serial } of checkpoints) {
    if (serial <= afterSerial) continue;
    const signed = parseCheckpoint(bodyOf(note));
    if (signed.size > tree.size) return { ok: false, detail: `the checkpoint of size ${signed.size} covers more entries than the log holds (${tree.size})` };
    if (!tree.root(signed.size).equals(signed.root))
      return { ok: false, detail: `the stored entries no longer match the checkpoint of size ${signed.size}: an entry below index ${signed.size} was changed` };
  }
  return undefined;
}

/** The tree read again against the one read before it (its size and root): a line changed after it was read is a failed check. */
function changedSinceRead(read: { size: number; root: Buffer }, tree: MerkleTree): Integrity | undefined {
  if (read.size === 0) return undefined;
  if (tree.size < read.size) return { ok: false, detail: `the log holds ${tree.size} entries, fewer than the ${read.size} already read` };
  if (!tree.root(read.size).equals(read.root))
    return { ok: false, detail: `the stored entries no longer match the ${read.size} read before: an entry below index ${read.size} was changed after it was read` };
  return undefined;
}

/**
 * The gateway's view of the audit log (L2/L7): the Merkle tree over the stored lines as first read, kept in step with the
 * store (other gateways append too) by reading only the lines new since; checkpoints are signed over it, so none covers
 * a line changed after it was read. The self-check (`selfCheck`) reads every stored line again into a fresh tree and
 * compares it with the last signed checkpoint.
 */
export class AuditLog {
  private tree = new MerkleTree();

  constructor(
    private readonly store: Store,
    readonly keys: DatedKey[] | null,
    readonly origin: string,
  ) {}

  get signed(): boolean {
    return this.keys !== null;
  }

  /**
   * After a commit group was rolled back: the tree may hold lines read inside it (on SQLite a read in the open group sees
   * its units' rows), which are gone now. The next read starts again from the stored lines, and the next checkpoint
   * checks them against the last signed one as `sign` does.
   */
  forgetRead(): void {
    this.tree = new MerkleTree();
  }

  /**
   * The tree over every stored entry, read on from where it stopped, CHECK_CHUNK lines at a time with a turn of the event
   * loop between (a large log never holds `/healthz` up); a hole (a deleted row) is a failed check.
   */
  async current(): Promise<MerkleTree> {
    // The tree this read started on: a self-check may start a new one meanwhile, and another read may add to this one.
    const tree = this.tree;
    const size = await this.store.auditSize();
    if (size < tree.size) throw new IntegrityError(`the log holds ${size} entries, fewer than the ${tree.size} already read`);
    for (let first = true; ; first = false) {
      if (!first) await yieldTurn();
      const rows = await this.store.auditLines(tree.size, tree.size + CHECK_CHUNK);
      for (const row of rows) {
        if (row.index < tree.size) continue;
        if (row.index !== tree.size) throw new IntegrityError(`entry ${tree.size} is missing from the log`);
        tree.append(leafHash(row.line));
      }
      // A whole chunk missing while rows were counted beyond it is a hole too.
      if (rows.length === 0 && tree.size < size) throw new IntegrityError(`entry ${tree.size} is missing from the log`);
      if (rows.length < CHECK_CHUNK && tree.size >= size) return tree;
    }
  }

  /**
   * L7: rebuilds the tree from every stored line and checks it against the last signed checkpoint, which the signing
   * (`sign`) proved extends every one before it. Only when that fails, or with `every` (at start), are all checkpoints
   * read: the smallest that fails bounds where the changed entry lies. With `sinceRead` the lines read before (the tree
   * this one replaces) must be among them unchanged too: none read since the last checkpoint was changed meanwhile.
   */
  async selfCheck(afterSerial = 0, every = false, sinceRead = false): Promise<Integrity> {
    const read = sinceRead ? { size: this.tree.size, root: this.tree.root() } : undefined;
    this.tree = new MerkleTree();
    // The checkpoints before the entries: another gateway may sign one meanwhile, over entries read after it.
    let latest = every ? undefined : await this.store.latestAuditCheckpoint();
    // The last one stands for all only when it counts (stored after any acknowledgement) and is signed by a key of ours:
    // a row rewritten in the database, or one an acknowledgement set aside, sends the check through every checkpoint.
    if (latest && !this.standsForAll(latest, afterSerial)) {
      latest = undefined;
      every = true;
    }
    const checkpoints = every ? await this.store.auditCheckpoints() : latest ? [latest] : [];
    let tree: MerkleTree;
    try {
      tree = await this.current();
    } catch (err) {
      if (err instanceof IntegrityError) return { ok: false, detail: err.message };
      throw err;
    }
    const failed = firstFailure(checkpoints, tree, afterSerial);
    if (!failed) return (read && changedSinceRead(read, tree)) || { ok: true };
    if (every) return failed;
    // Those no larger than the last one read before the entries: one signed since may cover entries not read here.
    const earlier = (await this.store.auditCheckpoints()).filter((c) => c.size <= latest!.size);
    return firstFailure(earlier, tree, afterSerial) ?? failed;
  }

  /**
   * The largest checkpoint stored since the last acknowledgement (a serial above `afterSerial`): the log an
   * acknowledgement restarted from may be smaller than a checkpoint signed before it, which new checkpoints no longer extend.
   */
  private async lastSince(afterSerial: number): Promise<AuditCheckpointRow | undefined> {
    const latest = (await this.store.latestAuditCheckpoint()) ?? undefined;
    if (!latest || latest.serial > afterSerial) return latest;
    return (await this.store.auditCheckpoints()).filter((c) => c.serial > afterSerial).at(-1);
  }

  private standsForAll(checkpoint: AuditCheckpointRow, afterSerial: number): boolean {
    if (checkpoint.serial <= afterSerial) return false;
    return this.keys === null || openNote(checkpoint.note, this.keys).ok;
  }

  /**
   * L2: signs the tree's checkpoint when it grew, after checking it extends the last one since the acknowledgement
   * (`afterSerial`); `keep` stores it (by default as is) and answers whether it did. The note, or null when unsigned or
   * not kept.
   */
  async sign(atMs: number, o: SignOptions = {}): Promise<string | null> {
    if (!this.keys) return null;
    // The last checkpoint before the entries, as in selfCheck: the tree read after it is never smaller.
    const last = o.fresh ? undefined : await this.lastSince(o.afterSerial ?? 0);
    const tree = await this.current();
    if (last) {
      const old = parseCheckpoint(bodyOf(last.note));
      // Signed at this size already (by another gateway, say): its note stands for ours only over the same root. Over
      // another, the rows it read are not those read here (one changed in between): a failed check, not a checkpoint.
      if (old.size === tree.size) {
        if (tree.root().equals(old.root)) return last.note;
        throw new IntegrityError(`the checkpoint of size ${old.size} signed meanwhile is over other entries than the ${tree.size} read here`);
      }
      if (old.size > tree.size) throw new IntegrityError(`the log holds ${tree.size} entries, fewer than the checkpoint of size ${old.size}`);
      if (!verifyConsistency(old.size, tree.size, old.root, tree.root(), tree.consistencyProof(old.size, tree.size)))
        throw new IntegrityError(`the log does not extend the checkpoint of size ${old.size}`);
    }
    const note = signCheckpoint(this.origin, tree, signerOf(this.keys));
    const row = { size: tree.size, note, signedAtMs: atMs };
    if (!o.keep) await this.store.insertAuditCheckpoint(row);
    else if (!(await o.keep(row))) return null;
    return note;
  }

  /** L7 after an acknowledgement: the tree read again from the rows as they are, and a checkpoint signed over it. */
  async restart(atMs: number, keep?: SignOptions['keep']): Promise<string | null> {
    this.tree = new MerkleTree();
    return this.sign(atMs, { fresh: true, ...(keep ? { keep } : {}) });
  }

  async latest(): Promise<string | null> {
    return (await this.store.latestAuditCheckpoint())?.note ?? null;
  }
}

export class IntegrityError extends Error {}

export type SignOptions = {
  /** Signed with no checkpoint to extend (the log restarted by an acknowledgement). */
  fresh?: boolean;
  /** L7: the checkpoints stored up to this serial were set aside by the last acknowledgement. */
  afterSerial?: number;
  /** Stores the checkpoint, or refuses to (false); by default it is stored as is. */
  keep?: (c: NewAuditCheckpoint) => Promise<boolean>;
};
