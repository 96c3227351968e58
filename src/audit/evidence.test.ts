import { describe, expect, it } from 'vitest';
import { ORIGIN, makeLog, newKey } from '../testing/audit-log.ts';
import { entryLeaf, entryLine } from './entry.ts';
import { buildEvidence, type StoredLine } from './evidence.ts';
import { signCheckpoint } from './export.ts';
import { MerkleTree } from './merkle.ts';
import { verifyExport } from './verify.ts';

/**
 * A log of 12 signed at sizes 4, 9 and 12, then changed in the database by `change` with nobody acknowledging (L7):
 * the export of its stored lines against the checkpoints as signed, verified offline.
 */
function verifyChanged(change: (stored: StoredLine[]) => StoredLine[]) {
  const signer = newKey();
  const log = makeLog(12);
  const tree = new MerkleTree(log.entries.map(entryLeaf));
  const stored = change(log.entries.map((e) => ({ index: e.index, line: entryLine(e) })));
  const files = buildEvidence({
    origin: ORIGIN,
    stored,
    chosen: stored,
    checkpoints: [4, 9, 12].map((size) => signCheckpoint(ORIGIN, tree, signer, size)),
    keys: [signer],
    signer,
    createdAtMs: 1_765_000_000_000,
  });
  return verifyExport(files, [signer]);
}

describe('the export of a log that failed its self-check (L5-L7)', () => {
  it('[L6][L7] the last rows deleted: incomplete, naming the first entry the last checkpoint covers that is missing', () => {
    expect(verifyChanged((rows) => rows.slice(0, 10))).toMatchObject({
      exit: 2,
      problem: { file: 'entries.jsonl', line: 11, entryIndex: 10, detail: 'entry 10 is missing: the checkpoint of size 12 covers entries 0..11, the export ends at entry 9' },
    });
  });

  it('[L6][L7] a row in the middle deleted: incomplete, naming the missing entry (not the entries before it left without a proof)', () => {
    expect(verifyChanged((rows) => rows.filter((r) => r.index !== 6))).toMatchObject({ exit: 2, problem: { file: 'entries.jsonl', line: 7, entryIndex: 6 } });
  });

  it('[L6][L7] a row edited: tampered, naming the first entry past the last checkpoint the stored rows still match', () => {
    const edited = verifyChanged((rows) => rows.map((r) => (r.index === 7 ? { ...r, line: r.line.replace('"ana"', '"bob"') } : r)));
    expect(edited).toMatchObject({ exit: 1, problem: { file: 'entries.jsonl', line: 5, entryIndex: 4, detail: 'entry 4 is not in the tree the checkpoint of size 9 signs' } });
  });

  it('[L6][L7] a row no longer JSON, below the first checkpoint: the export is still made, and verify names entry 0 tampered', () => {
    const broken = verifyChanged((rows) => rows.map((r) => (r.index === 2 ? { ...r, line: 'not json\nat all' } : r)));
    expect(broken).toMatchObject({ exit: 1, problem: { file: 'entries.jsonl', line: 1, entryIndex: 0, detail: 'entry 0 is not in the tree the checkpoint of size 4 signs' } });
  });

  it('[L6] the log as signed: the same export verifies', () => {
    expect(verifyChanged((rows) => rows)).toMatchObject({ exit: 0, summary: { entries: 12, checkpoints: 3, treeSize: 12 } });
  });
});
