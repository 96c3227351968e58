import { sha256 } from './canonical.ts';

/** RFC 9162 section 2.1: a Merkle Tree Hash over SHA-256, domain-separated leaves (0x00) and nodes (0x01). */
const LEAF = Buffer.from([0x00]);
const NODE = Buffer.from([0x01]);

export const EMPTY_ROOT = sha256(Buffer.alloc(0));

/** A line's leaf: its UTF-8 after the 0x00 byte, which U+0000 is in UTF-8, hashed in one call. */
export function leafHash(leaf: Buffer | Uint8Array | string): Buffer {
  return typeof leaf === 'string' ? sha256('\u0000' + leaf) : sha256(Buffer.concat([LEAF, leaf]));
}

export function nodeHash(left: Buffer, right: Buffer): Buffer {
  return sha256(Buffer.concat([NODE, left, right]));
}

/** The largest power of two smaller than n (n > 1). */
function splitOf(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

/**
 * An append-only tree over leaf hashes. `full[h][i]` is the hash of the complete subtree of 2^h leaves starting at
 * leaf i * 2^h; every range RFC 9162's recursion asks for is one of those plus a shorter right part, so a root or a
 * proof for any size up to the current one costs O(log² n) hashes.
 */
export class MerkleTree {
  private readonly full: Buffer[][] = [[]];

  constructor(leafHashes: Iterable<Buffer> = []) {
    for (const h of leafHashes) this.append(h);
  }

  get size(): number {
    return this.full[0].length;
  }

  append(hash: Buffer): void {
    let level = 0;
    let node = hash;
    for (;;) {
      const row = (this.full[level] ??= []);
      row.push(node);
      if (row.length % 2 === 1) return;
      node = nodeHash(row[row.length - 2], row[row.length - 1]);
      level += 1;
    }
  }

  leaf(index: number): Buffer {
    return this.full[0][index];
  }

  /** MTH(D[0:size]). */
  root(size = this.size): Buffer {
    this.checkSize(size);
    return size === 0 ? EMPTY_ROOT : this.hashOf(0, size);
  }

  /** RFC 9162 section 2.1.3.1: PATH(index, D[0:size]), bottom-up. */
  inclusionProof(index: number, size = this.size): Buffer[] {
    this.checkSize(size);
    if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError(`index ${index} is not in a tree of size ${size}`);
    const path: Buffer[] = [];
    this.path(index, 0, size, path);
    return path;
  }

  /** RFC 9162 section 2.1.4.1: PROOF(older, D[0:newer]). */
  consistencyProof(older: number, newer = this.size): Buffer[] {
    this.checkSize(newer);
    if (!Number.isInteger(older) || older < 0 || older > newer) throw new RangeError(`size ${older} is not within a tree of size ${newer}`);
    const proof: Buffer[] = [];
    if (older > 0 && older < newer) this.subproof(older, 0, newer, true, proof);
    return proof;
  }

  private checkSize(size: number): void {
    if (!Number.isInteger(size) || size < 0 || size > this.size) throw new RangeError(`tree size ${size} is not between 0 and ${this.size}`);
  }

  /** MTH(D[start:end]); `start` is always aligned to the split the recursion makes. */
  private hashOf(start: number, end: number): Buffer {
    const n = end - start;
    if (isPowerOfTwo(n)) return this.full[Math.log2(n)][start / n];
    const k = splitOf(n);
    return nodeHash(this.hashOf(start, start + k), this.hashOf(start + k, end));
  }

  private path(index: number, start: number, end: number, out: Buffer[]): void {
    const n = end - start;
    if (n <= 1) return;
    const k = splitOf(n);
    if (index < k) {
      this.path(index, start, start + k, out);
      out.push(this.hashOf(start + k, end));
    } else {
      this.path(index - k, start + k, end, out);
      out.push(this.hashOf(start, start + k));
    }
  }

  private subproof(m: number, start: number, end: number, whole: boolean, out: Buffer[]): void {
    const n = end - start;
    if (m === n) {
      if (!whole) out.push(this.hashOf(start, end));
      return;
    }
    const k = splitOf(n);
    if (m <= k) {
      this.subproof(m, start, start + k, whole, out);
      out.push(this.hashOf(start + k, end));
    } else {
      this.subproof(m - k, start + k, end, false, out);
      out.push(this.hashOf(start, start + k));
    }
  }
}

const HASH_BYTES = 32;

/** RFC 9162 section 2.1.3.2: does `path` lead from the leaf at `index` to `root` in a tree of `size`? */
export function verifyInclusion(index: number, size: number, leaf: Buffer, path: Buffer[], root: Buffer): boolean {
  if (!Number.isInteger(index) || !Number.isInteger(size) || index < 0 || index >= size) return false;
  if (leaf.length !== HASH_BYTES || root.length !== HASH_BYTES || path.some((p) => p.length !== HASH_BYTES)) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
    } else {
      r = nodeHash(r, p);
    }
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return sn === 0 && r.equals(root);
}

/** RFC 9162 section 2.1.4.2: does `proof` show the tree of `newer` leaves extends the one of `older`? */
export function verifyConsistency(older: number, newer: number, oldRoot: Buffer, newRoot: Buffer, proof: Buffer[]): boolean {
  if (!Number.isInteger(older) || !Number.isInteger(newer) || older < 0 || older > newer) return false;
  if (oldRoot.length !== HASH_BYTES || newRoot.length !== HASH_BYTES || proof.some((p) => p.length !== HASH_BYTES)) return false;
  if (older === newer) return proof.length === 0 && oldRoot.equals(newRoot);
  if (older === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(older) ? [oldRoot, ...proof] : proof;
  let fn = older - 1;
  let sn = newer - 1;
  while (fn % 2 === 1) [fn, sn] = [(fn - 1) / 2, Math.floor(sn / 2)];
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
    } else {
      sr = nodeHash(sr, c);
    }
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return fr.equals(oldRoot) && sr.equals(newRoot) && sn === 0;
}
