import { canonicalJson } from './canonical.ts';
import { FILES, type ExportFiles } from './export-format.ts';
import { answerLine, ExportError, sealExport, type ExportInput } from './export.ts';
import { auditKeysDocument } from './keys.ts';
import { leafHash, MerkleTree } from './merkle.ts';
import { parseCheckpoint } from './note.ts';

/** A stored line of the log as the database holds it now, which may differ from what was signed (L7). */
export type StoredLine = { index: number; line: string };

export type EvidenceInput = Omit<ExportInput, 'tree' | 'entries' | 'format'> & {
  /** Every stored line, in index order (a deleted row leaves a hole): the proofs are computed from them. */
  stored: StoredLine[];
  /** The stored lines chosen by the filter, in index order; written as stored. `checkpoints`: as they were signed. */
  chosen: StoredLine[];
};

const bodyOf = (note: string) => note.split('\n\n')[0] + '\n';
const jsonLines = (values: unknown[]) => values.map((v) => canonicalJson(v) + '\n').join('');

/**
 * L5/L6 with L7: the export of a log that failed its self-check and that no admin has acknowledged yet. No checkpoint is
 * signed over the failure: the export carries the checkpoints as they were signed and the entries as they are stored,
 * so `askdock audit verify` shows offline where they part. Each entry is proved against the smallest checkpoint that
 * covers it, and each pair of checkpoints by a consistency proof, wherever the stored lines (up to the first missing
 * one) allow a proof to be computed; where they do not, no proof is written, and the verifier names the entry.
 * The manifest names the last checkpoint's size and root, so verify reads the log as far as it was signed.
 */
export function buildEvidence(input: EvidenceInput): ExportFiles {
  const signed = input.checkpoints.map((note) => ({ note, ...parseCheckpoint(bodyOf(note)) }));
  const last = signed.at(-1);
  if (!last) throw new ExportError('no checkpoint was signed since the last acknowledgement: nothing to prove the entries against');
  const tree = new MerkleTree();
  for (const row of input.stored) {
    if (row.index !== tree.size) break;
    tree.append(leafHash(row.line));
  }
  const provable = (size: number) => size <= tree.size;
  const inclusion = input.chosen.flatMap(({ index }) => {
    const covering = signed.find((c) => c.size > index);
    if (!covering || !provable(covering.size)) return [];
    return [{ type: 'inclusion', index, treeSize: covering.size, hashes: tree.inclusionProof(index, covering.size).map((h) => h.toString('base64')) }];
  });
  const consistency = signed.slice(1).flatMap((to, i) => {
    const from = signed[i];
    if (from.size >= to.size || !provable(to.size)) return [];
    return [{ type: 'consistency', from: from.size, to: to.size, hashes: tree.consistencyProof(from.size, to.size).map((h) => h.toString('base64')) }];
  });
  // A stored line is written as it is; one holding a line break (never canonical JSON) keeps its place on one line.
  const entries = input.chosen.map((r) => r.line.replace(/\r?\n/g, ' ') + '\n').join('');
  const files: ExportFiles = new Map([
    [FILES.entries, entries],
    [FILES.checkpoints, input.checkpoints.join('\n')],
    [FILES.proofs, jsonLines([...inclusion, ...consistency])],
    [FILES.keys, JSON.stringify(auditKeysDocument(input.keys), null, 2) + '\n'],
  ]);
  if (input.redact !== 'answers') files.set(FILES.answers, jsonLines((input.answers ?? []).map(answerLine)));
  return sealExport(files, { ...input, treeSize: last.size, root: last.root, indexes: input.chosen.map((r) => r.index) });
}
