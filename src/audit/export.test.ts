import { describe, expect, it } from 'vitest';
import { ORIGIN, exportOf, makeLog, newKey } from '../testing/audit-log.ts';
import { entryLeaf } from './entry.ts';
import { SignedManifest, fileDigest, splitNotes } from './export-format.ts';
import { buildExport, signCheckpoint } from './export.ts';
import { MerkleTree } from './merkle.ts';
import { openNote } from './note.ts';

describe('audit export (L5)', () => {
  it('[L5] writes the entries in order, the checkpoints, proofs, keys, answers and a manifest that signs every file', () => {
    const { files, signer, log } = exportOf({ format: 'csv' });
    expect([...files.keys()].sort()).toEqual(['answers.jsonl', 'checkpoints.txt', 'entries.csv', 'entries.jsonl', 'keys.json', 'manifest.json', 'proofs.jsonl']);
    const entries = files.get('entries.jsonl')!.trimEnd().split('\n').map((l) => JSON.parse(l).index);
    expect(entries).toEqual(log.entries.map((e) => e.index));
    expect(splitNotes(files.get('checkpoints.txt')!).map(({ note }) => openNote(note, [signer]).ok)).toEqual([true, true, true]);
    const { manifest } = SignedManifest.parse(JSON.parse(files.get('manifest.json')!));
    expect(manifest).toMatchObject({ origin: ORIGIN, treeSize: 12, entries: { first: 0, last: 11, count: 12, contiguous: true }, redacted: [] });
    for (const [name, digest] of Object.entries(manifest.files)) expect(fileDigest(files.get(name)!), name).toBe(digest);
    const proofs = files.get('proofs.jsonl')!.trimEnd().split('\n').map((l) => JSON.parse(l).type);
    expect(proofs.filter((t) => t === 'inclusion')).toHaveLength(12);
    expect(proofs.filter((t) => t === 'consistency')).toHaveLength(2);
  });

  it('[L5] refuses to export over a checkpoint that does not cover the whole log', () => {
    const log = makeLog(6);
    const tree = new MerkleTree(log.entries.map(entryLeaf));
    const signer = newKey();
    const stale = signCheckpoint(ORIGIN, tree, signer, 5);
    expect(() =>
      buildExport({ origin: ORIGIN, tree, entries: log.entries, checkpoints: [stale], keys: [signer], signer, createdAtMs: 0 }),
    ).toThrow('the last checkpoint must cover the whole tree (6 entries): sign a fresh one first');
  });
});
