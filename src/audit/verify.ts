import { parseCanonical, saltedDigestOf } from './canonical.ts';
import { EntryHead } from './entry.ts';
import { AnswerLine, FILES, ProofLine, SignedManifest, checkManifestSignature, fileDigest, linesOf, splitNotes, type ExportFiles, type Manifest } from './export-format.ts';
import { leafHash, verifyConsistency, verifyInclusion } from './merkle.ts';
import { openNote, parseCheckpoint, type Checkpoint, type VerifierKey } from './note.ts';
import { checkReceiptAgainst, type ReceiptInput } from './verify-receipt.ts';

/**
 * L6: the offline check of an export. Exit 0 valid; 1 tampered; 2 incomplete (a gap, a missing proof or file, an
 * unknown key); 3 bad usage (the CLI's). The first bad item is named by file, line and entry index.
 */
export type Problem = { file: string; line?: number; entryIndex?: number; detail: string };
export type VerifyResult =
  | { exit: 0; summary: { entries: number; first?: number; last?: number; checkpoints: number; treeSize: number; signedBy: string; answers: number; receipt?: string } }
  | { exit: 1 | 2 | 3; problem: Problem };

class Found extends Error {
  constructor(
    readonly exit: 1 | 2,
    readonly problem: Problem,
  ) {
    super(problem.detail);
  }
}

const tampered = (problem: Problem) => new Found(1, problem);
type Entry = EntryHead & { questionId?: string; answersDigest?: string };

export function verifyExport(files: ExportFiles, trusted: VerifierKey[], receipt?: ReceiptInput): VerifyResult {
  try {
    return new ExportCheck(files, trusted).run(receipt);
  } catch (err) {
    if (err instanceof Found) return { exit: err.exit, problem: err.problem };
    throw err;
  }
}

class ExportCheck {
  private manifest!: Manifest;
  /** Files whose hash differs from the signed manifest: a problem found in one of them is tampering, never a mere gap. */
  private readonly changed = new Set<string>();
  private readonly entries = new Map<number, Entry>();

  constructor(
    private readonly files: ExportFiles,
    private readonly trusted: VerifierKey[],
  ) {}

  /** A gap or a missing proof: incomplete, unless the file was changed after it was signed. */
  private incomplete(problem: Problem): Found {
    return new Found(this.changed.has(problem.file) ? 1 : 2, problem);
  }

  run(receipt?: ReceiptInput): VerifyResult {
    const signedBy = this.checkManifest();
    for (const [name, digest] of Object.entries(this.manifest.files)) {
      const text = this.files.get(name);
      if (text === undefined) throw new Found(2, { file: name, detail: 'listed in manifest.json but missing' });
      if (fileDigest(text) !== digest) this.changed.add(name);
    }
    const proofs = this.readProofs();
    const signed = this.openCheckpoints();
    const checkpoints = new Map(signed.map((c) => [c.size, c]));
    // The entries before the chain: a log changed after it was signed (an export while a failed check waits, L7) is
    // named by its first entry no checkpoint proves, not by the proof between two checkpoints it broke.
    this.checkEntries(proofs.inclusion, checkpoints);
    this.checkChain(signed, proofs.consistency);
    const answers = this.checkAnswers();
    const [changed] = this.changed;
    if (changed) throw tampered({ file: changed, detail: 'its SHA-256 differs from the one manifest.json signs' });
    const receiptCheck = receipt ? checkReceiptAgainst(receipt, this.trusted, this.entries) : undefined;
    if (receiptCheck && !receiptCheck.ok) throw new Found(receiptCheck.exit, receiptCheck.problem);
    const range = this.manifest.entries;
    return {
      exit: 0,
      summary: { entries: this.entries.size, first: range?.first, last: range?.last, checkpoints: checkpoints.size, treeSize: this.manifest.treeSize, signedBy, answers, receipt: receiptCheck?.line },
    };
  }

  private checkManifest(): string {
    const text = this.files.get(FILES.manifest);
    if (text === undefined) throw new Found(2, { file: FILES.manifest, detail: 'missing: this is not an export, or it is incomplete' });
    let signed: SignedManifest;
    try {
      signed = SignedManifest.parse(JSON.parse(text));
    } catch (err) {
      throw tampered({ file: FILES.manifest, detail: `not a signed manifest: ${(err as Error).message.split('\n')[0]}` });
    }
    const check = checkManifestSignature(signed, this.trusted);
    if (!check.ok) {
      if (check.problem === 'bad-signature') throw tampered({ file: FILES.manifest, detail: check.detail });
      throw new Found(2, { file: FILES.manifest, detail: check.detail + this.onlyInside(check.names) });
    }
    this.manifest = signed.manifest;
    return `${check.signedBy.name} (${check.signedBy.keyId.toString('hex')})`;
  }

  /** Names the keys that signed but that only keys.json vouches for: never trusted on its own. */
  private onlyInside(names: string[]): string {
    const keysJson = this.files.get(FILES.keys) ?? '';
    const inside = names.filter((n) => keysJson.includes(`"${n.split(' ')[0]}"`));
    return inside.length ? `; ${inside.join(', ')} is found only inside the export (keys.json), which is never trusted on its own: pass the key you got from the gateway with --key` : '';
  }

  private readProofs() {
    const inclusion = new Map<number, Extract<ProofLine, { type: 'inclusion' }> & { line: number }>();
    const consistency = new Map<string, Buffer[]>();
    const text = this.files.get(FILES.proofs);
    if (text === undefined) throw new Found(2, { file: FILES.proofs, detail: 'missing' });
    linesOf(text).forEach((line, i) => {
      let proof: ProofLine;
      try {
        proof = ProofLine.parse(parseCanonical(line));
      } catch (err) {
        throw tampered({ file: FILES.proofs, line: i + 1, detail: `not a proof line: ${(err as Error).message.split('\n')[0]}` });
      }
      if (proof.type === 'inclusion') inclusion.set(proof.index, { ...proof, line: i + 1 });
      else consistency.set(`${proof.from}:${proof.to}`, proof.hashes.map((h) => Buffer.from(h, 'base64')));
    });
    return { inclusion, consistency };
  }

  /** Every checkpoint's signature and origin, in growing size; the last is the tree manifest.json signs. */
  private openCheckpoints(): (Checkpoint & { line: number })[] {
    const file = FILES.checkpoints;
    const notes = splitNotes(this.files.get(file) ?? '');
    if (notes.length === 0) throw new Found(2, { file, detail: 'no checkpoint' });
    const signed: (Checkpoint & { line: number })[] = [];
    for (const { note, line } of notes) {
      const opened = openNote(note, this.trusted);
      if (!opened.ok) {
        if (opened.problem === 'unknown-key') throw new Found(2, { file, line, detail: opened.detail + this.onlyInside(opened.names ?? []) });
        throw tampered({ file, line, detail: opened.detail });
      }
      let c: Checkpoint;
      try {
        c = parseCheckpoint(opened.text);
      } catch (err) {
        throw tampered({ file, line, detail: (err as Error).message });
      }
      if (c.origin !== this.manifest.origin) throw tampered({ file, line, detail: `origin "${c.origin}" is not the log's ("${this.manifest.origin}")` });
      const before = signed.at(-1);
      if (before && c.size <= before.size) throw tampered({ file, line, detail: `size ${c.size} does not grow from ${before.size} (line ${before.line})` });
      signed.push({ ...c, line });
    }
    const last = signed.at(-1)!;
    if (last.size !== this.manifest.treeSize || last.root.toString('base64') !== this.manifest.root)
      throw tampered({ file, line: last.line, detail: `the last checkpoint is not the tree manifest.json signs (size ${this.manifest.treeSize})` });
    return signed;
  }

  /** Each checkpoint extends the one before it (consistency proofs). */
  private checkChain(signed: (Checkpoint & { line: number })[], consistency: Map<string, Buffer[]>): void {
    const file = FILES.checkpoints;
    signed.slice(1).forEach((c, i) => {
      const before = signed[i];
      const proof = consistency.get(`${before.size}:${c.size}`);
      if (!proof) throw this.incomplete({ file: FILES.proofs, detail: `no consistency proof from size ${before.size} to ${c.size} (checkpoints.txt line ${c.line})` });
      if (!verifyConsistency(before.size, c.size, before.root, c.root, proof))
        throw tampered({ file, line: c.line, detail: `the checkpoint of size ${c.size} does not extend the one of size ${before.size} (line ${before.line})` });
    });
  }

  private checkEntries(inclusion: ReturnType<ExportCheck['readProofs']>['inclusion'], checkpoints: Map<number, Checkpoint>): void {
    const file = FILES.entries;
    const range = this.manifest.entries;
    const lines = linesOf(this.files.get(file) ?? '');
    // An export of the whole log (no filter) holds every entry the last checkpoint covers, from entry 0.
    const whole = Object.keys(this.manifest.filter).length === 0;
    let previous: number | undefined;
    let unproved: Found | undefined;
    lines.forEach((text, i) => {
      const line = i + 1;
      const expected = previous === undefined ? (whole ? 0 : (range?.first ?? 0)) : previous + 1;
      let entry: Entry;
      try {
        entry = EntryHead.parse(parseCanonical(text)) as Entry;
      } catch (err) {
        throw tampered({ file, line, entryIndex: expected, detail: `not an entry: ${(err as Error).message.split('\n')[0]}` });
      }
      const index = entry.index;
      if (previous !== undefined && index <= previous) throw tampered({ file, line, entryIndex: index, detail: `entry ${index} comes after entry ${previous}: out of order` });
      if (range?.contiguous && index !== expected) throw this.incomplete({ file, line, entryIndex: expected, detail: `entry ${expected} is missing (the next line holds entry ${index})` });
      this.entries.set(index, entry);
      previous = index;
      const proof = inclusion.get(index);
      const checkpoint = proof && checkpoints.get(proof.treeSize);
      // A missing proof is named only when nothing else in the file explains it (a gap, a log shorter than signed).
      if (!proof) unproved ??= this.incomplete({ file: FILES.proofs, entryIndex: index, detail: `no inclusion proof for entry ${index} (entries.jsonl line ${line})` });
      else if (!checkpoint) unproved ??= this.incomplete({ file: FILES.proofs, line: proof.line, entryIndex: index, detail: `no checkpoint of size ${proof.treeSize}` });
      else if (!verifyInclusion(index, proof.treeSize, leafHash(text), proof.hashes.map((h) => Buffer.from(h, 'base64')), checkpoint.root)) {
        const blame = this.changed.has(FILES.proofs) && !this.changed.has(file) ? { file: FILES.proofs, line: proof.line } : { file, line };
        throw tampered({ ...blame, entryIndex: index, detail: `entry ${index} is not in the tree the checkpoint of size ${proof.treeSize} signs` });
      }
    });
    const count = this.entries.size;
    if (!range) {
      if (count) throw tampered({ file, line: 1, detail: 'manifest.json lists no entries' });
    } else if (previous !== range.last || count !== range.count)
      throw this.incomplete({ file, line: lines.length + 1, entryIndex: (previous ?? range.first - 1) + 1, detail: `manifest.json lists ${range.count} entries up to ${range.last}, the file holds ${count}` });
    const size = this.manifest.treeSize;
    if (whole && (previous ?? -1) < size - 1) {
      const missing = (previous ?? -1) + 1;
      const ends = previous === undefined ? 'holds none' : `ends at entry ${previous}`;
      throw this.incomplete({ file, line: lines.length + 1, entryIndex: missing, detail: `entry ${missing} is missing: the checkpoint of size ${size} covers entries 0..${size - 1}, the export ${ends}` });
    }
    if (unproved) throw unproved;
  }

  private checkAnswers(): number {
    const file = FILES.answers;
    const text = this.files.get(file);
    if (text === undefined || this.manifest.files[file] === undefined) return 0;
    const lines = linesOf(text);
    lines.forEach((raw, i) => {
      const line = i + 1;
      let a: AnswerLine;
      try {
        a = AnswerLine.parse(parseCanonical(raw));
      } catch (err) {
        throw tampered({ file, line, detail: `not an answer line: ${(err as Error).message.split('\n')[0]}` });
      }
      const entry = this.entries.get(a.entryIndex);
      if (!entry || entry.questionId !== a.questionId) throw tampered({ file, line, entryIndex: a.entryIndex, detail: `entry ${a.entryIndex} of this export records no answers of question ${a.questionId}` });
      if (saltedDigestOf(a.answers, Buffer.from(a.salt, 'base64url')) !== entry.answersDigest)
        throw tampered({ file, line, entryIndex: a.entryIndex, detail: `the answers do not match the digest entry ${a.entryIndex} records` });
    });
    return lines.length;
  }
}
