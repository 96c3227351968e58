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
    const checkpoints = this.checkCheckpoints(proofs.consistency);
    this.checkEntries(proofs.inclusion, checkpoints);
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

  private checkCheckpoints(consistency: Map<string, Buffer[]>): Map<number, Checkpoint> {
    const file = FILES.checkpoints;
    const notes = splitNotes(this.files.get(file) ?? '');
    if (notes.length === 0) throw new Found(2, { file, detail: 'no checkpoint' });
    const bySize = new Map<number, Checkpoint>();
    let before: (Checkpoint & { line: number }) | undefined;
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
      if (before) {
        if (c.size <= before.size) throw tampered({ file, line, detail: `size ${c.size} does not grow from ${before.size} (line ${before.line})` });
        const proof = consistency.get(`${before.size}:${c.size}`);
        if (!proof) throw this.incomplete({ file: FILES.proofs, detail: `no consistency proof from size ${before.size} to ${c.size} (checkpoints.txt line ${line})` });
        if (!verifyConsistency(before.size, c.size, before.root, c.root, proof))
          throw tampered({ file, line, detail: `the checkpoint of size ${c.size} does not extend the one of size ${before.size} (line ${before.line})` });
      }
      bySize.set(c.size, c);
      before = { ...c, line };
    }
    if (before!.size !== this.manifest.treeSize || before!.root.toString('base64') !== this.manifest.root)
      throw tampered({ file, line: before!.line, detail: `the last checkpoint is not the tree manifest.json signs (size ${this.manifest.treeSize})` });
    return bySize;
  }

  private checkEntries(inclusion: ReturnType<ExportCheck['readProofs']>['inclusion'], checkpoints: Map<number, Checkpoint>): void {
    const file = FILES.entries;
    const range = this.manifest.entries;
    const lines = linesOf(this.files.get(file) ?? '');
    let previous: number | undefined;
    lines.forEach((text, i) => {
      const line = i + 1;
      const expected = previous === undefined ? (range?.first ?? 0) : previous + 1;
      let entry: Entry;
      try {
        entry = EntryHead.parse(parseCanonical(text)) as Entry;
      } catch (err) {
        throw tampered({ file, line, entryIndex: expected, detail: `not an entry: ${(err as Error).message.split('\n')[0]}` });
      }
      const index = entry.index;
      if (previous !== undefined && index <= previous) throw tampered({ file, line, entryIndex: index, detail: `entry ${index} comes after entry ${previous}: out of order` });
      if (range?.contiguous && index !== expected) throw this.incomplete({ file, line, entryIndex: expected, detail: `entry ${expected} is missing (the next line holds entry ${index})` });
      const proof = inclusion.get(index);
      if (!proof) throw this.incomplete({ file: FILES.proofs, entryIndex: index, detail: `no inclusion proof for entry ${index} (entries.jsonl line ${line})` });
      const checkpoint = checkpoints.get(proof.treeSize);
      if (!checkpoint) throw this.incomplete({ file: FILES.proofs, line: proof.line, entryIndex: index, detail: `no checkpoint of size ${proof.treeSize}` });
      const hashes = proof.hashes.map((h) => Buffer.from(h, 'base64'));
      if (!verifyInclusion(index, proof.treeSize, leafHash(text), hashes, checkpoint.root)) {
        const blame = this.changed.has(FILES.proofs) && !this.changed.has(file) ? { file: FILES.proofs, line: proof.line } : { file, line };
        throw tampered({ ...blame, entryIndex: index, detail: `entry ${index} is not in the tree the checkpoint of size ${proof.treeSize} signs` });
      }
      this.entries.set(index, entry);
      previous = index;
    });
    const count = this.entries.size;
    if (!range) {
      if (count) throw tampered({ file, line: 1, detail: 'manifest.json lists no entries' });
      return;
    }
    if (previous !== range.last || count !== range.count)
      throw this.incomplete({ file, line: lines.length + 1, entryIndex: (previous ?? range.first - 1) + 1, detail: `manifest.json lists ${range.count} entries up to ${range.last}, the file holds ${count}` });
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
