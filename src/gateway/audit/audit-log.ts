import { leafHash, MerkleTree, parseCheckpoint, signCheckpoint, signerOf, verifyConsistency, type DatedKey } from '../../audit/index.ts';
import type { Store } from '../store/types.ts';

/** L7: what the self-check found. */
export type Integrity = { ok: true } | { ok: false; detail: string };

const bodyOf = (note: string) => note.split('\n\n')[0] + '\n';

/**
 * The gateway's view of the audit log (L2/L7): the Merkle tree over the stored lines, kept in step with the store (other
 * gateways append too), the self-check against the last signed checkpoint, and the signing of new checkpoints.
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

  /** The tree over every stored entry, read on from where it stopped; a hole (a deleted row) is a failed check. */
  async current(): Promise<MerkleTree> {
    const size = await this.store.auditSize();
    if (size < this.tree.size) throw new IntegrityError(`the log holds ${size} entries, fewer than the ${this.tree.size} already read`);
    for (const row of await this.store.auditLines(this.tree.size, Number.MAX_SAFE_INTEGER)) {
      if (row.index !== this.tree.size) throw new IntegrityError(`entry ${this.tree.size} is missing from the log`);
      this.tree.append(leafHash(row.line));
    }
    return this.tree;
  }

  /** L7: rebuilds the tree from every stored line and checks it against the last signed checkpoint. */
  async selfCheck(acknowledgedAtMs = 0): Promise<Integrity> {
    this.tree = new MerkleTree();
    // The checkpoints before the entries: another gateway may sign one meanwhile, over entries read after it.
    const checkpoints = await this.store.auditCheckpoints();
    let tree: MerkleTree;
    try {
      tree = await this.current();
    } catch (err) {
      if (err instanceof IntegrityError) return { ok: false, detail: err.message };
      throw err;
    }
    // Every checkpoint is checked: the smallest that fails bounds where the changed entry lies.
    // Checkpoints signed before an admin acknowledged a failed check are not checked again (L7).
    for (const { note, signedAtMs } of checkpoints) {
      if (signedAtMs < acknowledgedAtMs) continue;
      const signed = parseCheckpoint(bodyOf(note));
      if (signed.size > tree.size) return { ok: false, detail: `the checkpoint of size ${signed.size} covers more entries than the log holds (${tree.size})` };
      if (!tree.root(signed.size).equals(signed.root))
        return { ok: false, detail: `the stored entries no longer match the checkpoint of size ${signed.size}: an entry below index ${signed.size} was changed` };
    }
    return { ok: true };
  }

  /** L2: signs the tree's checkpoint when it grew, after checking it extends the last one; the note, or null when unsigned. */
  async sign(atMs: number, fresh = false): Promise<string | null> {
    if (!this.keys) return null;
    // The last checkpoint before the entries, as in selfCheck: the tree read after it is never smaller.
    const last = await this.store.latestAuditCheckpoint();
    const tree = await this.current();
    if (last && !fresh) {
      const old = parseCheckpoint(bodyOf(last.note));
      if (old.size === tree.size) return last.note;
      if (!verifyConsistency(old.size, tree.size, old.root, tree.root(), tree.consistencyProof(old.size, tree.size)))
        throw new IntegrityError(`the log does not extend the checkpoint of size ${old.size}`);
    }
    const note = signCheckpoint(this.origin, tree, signerOf(this.keys));
    await this.store.insertAuditCheckpoint({ size: tree.size, note, signedAtMs: atMs });
    return note;
  }

  /** L7 after an acknowledgement: the tree read again from the rows as they are, and a checkpoint signed over it. */
  async restart(atMs: number): Promise<string | null> {
    this.tree = new MerkleTree();
    return this.sign(atMs, true);
  }

  async latest(): Promise<string | null> {
    return (await this.store.latestAuditCheckpoint())?.note ?? null;
  }
}

export class IntegrityError extends Error {}
