import { canonicalJson, SALT_BYTES } from './canonical.ts';
import { entriesCsv } from './csv.ts';
import { entryLine, type AuditEntry } from './entry.ts';
import { FILES, fileDigest, signManifest, type AnswerLine, type ExportFiles, type ExportFilter, type Manifest } from './export-format.ts';
import { auditKeysDocument, type PublicDatedKey } from './keys.ts';
import type { MerkleTree } from './merkle.ts';
import { formatCheckpoint, parseCheckpoint, signNote, type SignerKey } from './note.ts';

/** An answer as the gateway keeps it beside its entry: the text and the salt of the entry's digest. */
export type KeptAnswer = { entryIndex: number; questionId: string; salt: Buffer; answers: unknown };

export type ExportInput = {
  origin: string;
  /** The whole log's tree; its size is the size of the last checkpoint. */
  tree: MerkleTree;
  /** The entries chosen, in log order. */
  entries: AuditEntry[];
  /** Signed checkpoints (notes) in order of size; the last is the one signed for this export, over the whole tree. */
  checkpoints: string[];
  keys: PublicDatedKey[];
  signer: SignerKey;
  answers?: KeptAnswer[];
  filter?: ExportFilter;
  redact?: 'answers';
  format?: 'csv';
  createdAtMs: number;
};

export class ExportError extends Error {
  readonly code = 'AUDIT_EXPORT';
}

/** Signs the checkpoint of the tree at its current size (the gateway's checkpoint duty, and the fresh one an export signs). */
export function signCheckpoint(origin: string, tree: MerkleTree, signer: SignerKey, size = tree.size): string {
  return signNote(formatCheckpoint({ origin, size, root: tree.root(size) }), [signer]);
}

const jsonLines = (values: unknown[]) => values.map((v) => canonicalJson(v) + '\n').join('');

/** L5: the export's files, by name, as text. Pure: the caller writes them (writeExportDir) or streams them (audit.export). */
export function buildExport(input: ExportInput): ExportFiles {
  const { tree, entries, checkpoints } = input;
  const last = checkpoints.length ? parseCheckpoint(checkpoints[checkpoints.length - 1].split('\n\n')[0] + '\n') : undefined;
  if (!last || last.size !== tree.size) throw new ExportError(`the last checkpoint must cover the whole tree (${tree.size} entries): sign a fresh one first`);
  const sizes = checkpoints.map((note) => parseCheckpoint(note.split('\n\n')[0] + '\n').size);
  const proofs = [
    ...entries.map((e) => ({ type: 'inclusion', index: e.index, treeSize: tree.size, hashes: tree.inclusionProof(e.index).map((h) => h.toString('base64')) })),
    ...sizes.slice(1).map((to, i) => ({ type: 'consistency', from: sizes[i], to, hashes: tree.consistencyProof(sizes[i], to).map((h) => h.toString('base64')) })),
  ];
  const files: ExportFiles = new Map([
    [FILES.entries, entries.map((e) => entryLine(e) + '\n').join('')],
    [FILES.checkpoints, checkpoints.join('\n')],
    [FILES.proofs, jsonLines(proofs)],
    [FILES.keys, JSON.stringify(auditKeysDocument(input.keys), null, 2) + '\n'],
  ]);
  if (input.redact !== 'answers') files.set(FILES.answers, answersText(input.answers ?? []));
  if (input.format === 'csv') files.set(FILES.csv, entriesCsv(entries));
  return sealExport(files, { ...input, treeSize: tree.size, root: last.root, indexes: entries.map((e) => e.index) });
}

type Seal = Pick<ExportInput, 'origin' | 'createdAtMs' | 'filter' | 'redact' | 'signer'> & { treeSize: number; root: Buffer; indexes: number[] };

/** The signed manifest over the export's files: the tree the last checkpoint signs, the entries' range, each file's hash. */
export function sealExport(files: ExportFiles, seal: Seal): ExportFiles {
  const filter = seal.filter ?? {};
  const { indexes } = seal;
  const manifest: Manifest = {
    v: 1,
    origin: seal.origin,
    createdAtMs: seal.createdAtMs,
    treeSize: seal.treeSize,
    root: seal.root.toString('base64'),
    entries: indexes.length
      ? { first: indexes[0], last: indexes[indexes.length - 1], count: indexes.length, contiguous: filter.sessionKey === undefined && filter.agentId === undefined }
      : null,
    filter,
    redacted: seal.redact === 'answers' ? ['answers'] : [],
    files: Object.fromEntries([...files].map(([name, text]) => [name, fileDigest(text)])),
  };
  files.set(FILES.manifest, signManifest(manifest, [seal.signer]));
  return files;
}

/** L5: answers.jsonl: each answer's text with its salt, so a verifier checks it against its entry's digest. */
export const answersText = (answers: KeptAnswer[]): string => jsonLines(answers.map(answerLine));

export function answerLine(a: KeptAnswer): AnswerLine {
  if (a.salt.length !== SALT_BYTES) throw new ExportError(`answers of entry ${a.entryIndex}: the salt must be ${SALT_BYTES} bytes`);
  return { entryIndex: a.entryIndex, questionId: a.questionId, salt: a.salt.toString('base64url'), answers: a.answers };
}
