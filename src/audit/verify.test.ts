import { describe, expect, it } from 'vitest';
import { ORIGIN, exportOf, makeLog, newKey, receiptFor } from '../testing/audit-log.ts';
import { entryLeaf, type AuditEntry } from './entry.ts';
import { buildExport, signCheckpoint } from './export.ts';
import { FILES, SignedManifest, fileDigest, signManifest, type ExportFiles } from './export-format.ts';
import { MerkleTree } from './merkle.ts';
import { verifyExport } from './verify.ts';

const edit = (files: ExportFiles, name: string, change: (lines: string[]) => string[]) => {
  const copy = new Map(files);
  const lines = copy.get(name)!.split('\n');
  copy.set(name, change(lines).join('\n'));
  return copy;
};

describe('offline verify of an export (L6)', () => {
  it('[L6] an export as made verifies with the gateway key alone: exit 0 and what was checked', () => {
    const { files, signer } = exportOf();
    expect(verifyExport(files, [signer])).toMatchObject({ exit: 0, summary: { entries: 12, first: 0, last: 11, checkpoints: 3, treeSize: 12, answers: 6 } });
  });

  it('[L6] one byte flipped in an entry: exit 1 naming entries.jsonl, the line and the entry index', () => {
    const { files, signer } = exportOf();
    const tampered = edit(files, FILES.entries, (lines) => lines.map((l, i) => (i === 4 ? l.replace('"q-2"', '"q-3"') : l)));
    expect(verifyExport(tampered, [signer])).toMatchObject({ exit: 1, problem: { file: 'entries.jsonl', line: 5, entryIndex: 4 } });
    const broken = edit(files, FILES.entries, (lines) => lines.map((l, i) => (i === 6 ? l.replace('{', '[') : l)));
    expect(verifyExport(broken, [signer])).toMatchObject({ exit: 1, problem: { file: 'entries.jsonl', line: 7, entryIndex: 6 } });
  });

  it('[L6] an entry dropped: exit 1 naming where entry 3 should be', () => {
    const { files, signer } = exportOf();
    const dropped = edit(files, FILES.entries, (lines) => lines.filter((_, i) => i !== 3));
    expect(verifyExport(dropped, [signer])).toMatchObject({ exit: 1, problem: { file: 'entries.jsonl', line: 4, entryIndex: 3 } });
    const lastDropped = edit(files, FILES.entries, (lines) => [...lines.slice(0, -2), '']);
    expect(verifyExport(lastDropped, [signer])).toMatchObject({ exit: 1, problem: { file: 'entries.jsonl', line: 12, entryIndex: 11 } });
  });

  it('[L6] two entries swapped: exit 1 naming the first misplaced line', () => {
    const { files, signer } = exportOf();
    const swapped = edit(files, FILES.entries, (lines) => lines.map((l, i) => (i === 5 ? lines[6] : i === 6 ? lines[5] : l)));
    expect(verifyExport(swapped, [signer])).toMatchObject({ exit: 1, problem: { file: 'entries.jsonl', line: 6, entryIndex: 5 } });
    // In an export filtered by session no gap gives it away: the order does.
    const filtered = exportOf({ pick: (e) => e.sessionKey === 'web', filter: { sessionKey: 'web' } });
    const reordered = edit(filtered.files, FILES.entries, (lines) => lines.map((l, i) => (i === 2 ? lines[3] : i === 3 ? lines[2] : l)));
    expect(verifyExport(reordered, [filtered.signer])).toMatchObject({ exit: 1, problem: { file: 'entries.jsonl', line: 4, entryIndex: 6, detail: 'entry 6 comes after entry 7: out of order' } });
  });

  it('[L6] a checkpoint replaced: exit 1 naming its line in checkpoints.txt', () => {
    const { files, signer, log } = exportOf();
    // checkpoints.txt: the note of size 4 on lines 1-5, an empty line, the note of size 9 from line 7 (its root on line 9).
    const newRoot = edit(files, FILES.checkpoints, (lines) => lines.map((l, i) => (i === 8 ? Buffer.alloc(32, 9).toString('base64') : l)));
    expect(verifyExport(newRoot, [signer])).toMatchObject({ exit: 1, problem: { file: 'checkpoints.txt', line: 7 } });
    // A well-signed checkpoint of a rewritten history (the key's holder editing entry 6): it does not extend the one before.
    const rewritten = log.entries.map((e) => (e.index === 6 ? { ...e, identity: 'mallory' } : e));
    const forged = signCheckpoint(ORIGIN, new MerkleTree(rewritten.map(entryLeaf)), signer, 9).split('\n');
    const forkedFile = edit(files, FILES.checkpoints, (lines) => [...lines.slice(0, 6), ...forged.slice(0, -1), ...lines.slice(11)]);
    expect(verifyExport(forkedFile, [signer])).toMatchObject({ exit: 1, problem: { file: 'checkpoints.txt', line: 7, detail: expect.stringContaining('does not extend') } });
  });

  it('[L6] an export signed with another key: exit 2, the manifest names the unknown signer', () => {
    const { files } = exportOf({ signer: newKey() });
    const result = verifyExport(files, [newKey()]);
    expect(result).toMatchObject({ exit: 2, problem: { file: 'manifest.json' } });
    if (result.exit === 2) expect(result.problem.detail).toMatch(/signed only by keys not trusted here: askdock.test\/audit \([0-9a-f]{8}\)/);
  });

  it('[L6] an edited manifest no longer matches its signature: exit 1 naming manifest.json', () => {
    const { files, signer } = exportOf();
    const edited = edit(files, FILES.manifest, (lines) => lines.map((l) => l.replace('"createdAtMs": 1765000000000', '"createdAtMs": 1765000000001')));
    expect(edited.get(FILES.manifest)).not.toBe(files.get(FILES.manifest));
    expect(verifyExport(edited, [signer])).toMatchObject({ exit: 1, problem: { file: 'manifest.json', detail: expect.stringContaining('does not verify') } });
  });

  it('[L6] a key found only inside the export is never trusted on its own', () => {
    const intruder = newKey();
    const { files } = exportOf({ signer: intruder });
    expect(files.get(FILES.keys)).toContain(intruder.keyId.toString('hex'));
    const result = verifyExport(files, [newKey()]);
    expect(result.exit).toBe(2);
    if (result.exit === 2) expect(result.problem.detail).toContain('found only inside the export (keys.json), which is never trusted on its own');
  });

  it('[L6] an export signed with a gap in its entries: exit 2 (incomplete) naming the missing entry', () => {
    const { files, signer } = exportOf({ pick: (e) => e.index !== 7 });
    expect(verifyExport(files, [signer])).toMatchObject({ exit: 2, problem: { file: 'entries.jsonl', line: 8, entryIndex: 7 } });
  });

  it('[L6] an export filtered by session has no gap to report, and each entry still proves its place', () => {
    const { files, signer } = exportOf({ pick: (e) => e.sessionKey === 'web', filter: { sessionKey: 'web' } });
    expect(verifyExport(files, [signer])).toMatchObject({ exit: 0, summary: { entries: 6, first: 2, last: 11 } });
  });

  it('[L6] answers are checked against their digests; a changed answer names its line', () => {
    const { files, signer } = exportOf();
    const changed = edit(files, FILES.answers, (lines) => lines.map((l, i) => (i === 2 ? l.replace('calc', 'CALC') : l)));
    expect(verifyExport(changed, [signer])).toMatchObject({ exit: 1, problem: { file: 'answers.jsonl', line: 3, entryIndex: 5 } });
  });

  it('[L5] a redacted export holds no answer text and still verifies', () => {
    const { files, signer } = exportOf({ redact: 'answers' });
    expect(files.has(FILES.answers)).toBe(false);
    expect([...files.values()].join('\n')).not.toContain('calc');
    expect(verifyExport(files, [signer])).toMatchObject({ exit: 0, summary: { answers: 0 } });
  });

  it('[L6] an edited keys.json or entries.csv is tampering; a missing listed file is incomplete', () => {
    const { files, signer } = exportOf({ format: 'csv' });
    expect(verifyExport(edit(files, FILES.keys, (l) => l.map((x) => x.replace('askdock.test', 'askdock.evil'))), [signer])).toMatchObject({ exit: 1, problem: { file: 'keys.json' } });
    expect(verifyExport(edit(files, FILES.csv, (l) => l.map((x) => x.replace('ana', 'bob'))), [signer])).toMatchObject({ exit: 1, problem: { file: 'entries.csv' } });
    const missing = new Map(files);
    missing.delete(FILES.proofs);
    expect(verifyExport(missing, [signer])).toMatchObject({ exit: 2, problem: { file: 'proofs.jsonl' } });
  });

  it('[L6] a receipt verifies against its entry; another key is unknown (2), another entry is tampering (1)', () => {
    const { files, signer, log } = exportOf();
    const receipt = receiptFor(log.entries[5], signer);
    expect(verifyExport(files, [signer], { file: 'r.jws', text: receipt })).toMatchObject({ exit: 0, summary: { receipt: expect.stringContaining('matches entry 5') } });
    const json = JSON.stringify({ status: 'answered', receipt });
    expect(verifyExport(files, [signer], { file: 'r.json', text: json })).toMatchObject({ exit: 0 });
    expect(verifyExport(files, [signer], { file: 'r.jws', text: receiptFor(log.entries[5], newKey()) })).toMatchObject({ exit: 2, problem: { file: 'r.jws' } });
    const wrong = receiptFor({ ...log.entries[5], answersDigest: log.entries[7].answersDigest }, signer);
    expect(verifyExport(files, [signer], { file: 'r.jws', text: wrong })).toMatchObject({ exit: 1, problem: { file: 'r.jws', entryIndex: 5 } });
  });

  it('[L6][L4] a receipt that tells another decision than its entry (status, who decided, the rules, the session) is tampering (1), naming the field', () => {
    const { files, signer, log } = exportOf();
    const entry = log.entries[5];
    const told: [AuditEntry, string][] = [
      [{ ...entry, status: 'skipped' }, 'status'],
      [{ ...entry, decidedBy: 'timeout' }, 'decidedBy'],
      [{ ...entry, rules: ['allow-all'] }, 'rules'],
      [{ ...entry, sessionKey: 'other' }, 'sessionKey'],
      [{ ...entry, identity: 'bo' }, 'resolvedBy'],
    ];
    for (const [other, field] of told) {
      const checked = verifyExport(files, [signer], { file: 'r.jws', text: receiptFor(other, signer) });
      expect(checked, field).toMatchObject({ exit: 1, problem: { file: 'r.jws', entryIndex: 5, detail: `the receipt's ${field} is not the one entry 5 records` } });
    }
  });

  it('[L3] after a rotation, checkpoints signed by the old key need the old key too: without it, incomplete (2)', () => {
    const old = newKey();
    const signer = newKey();
    const log = makeLog(12);
    const tree = new MerkleTree(log.entries.map(entryLeaf));
    const checkpoints = [signCheckpoint(ORIGIN, tree, old, 4), signCheckpoint(ORIGIN, tree, old, 9), signCheckpoint(ORIGIN, tree, signer)];
    const files = buildExport({ origin: ORIGIN, tree, entries: log.entries, checkpoints, keys: [old, signer], signer, answers: log.answers, createdAtMs: 0 });
    expect(verifyExport(files, [old, signer])).toMatchObject({ exit: 0 });
    expect(verifyExport(files, [signer])).toMatchObject({ exit: 2, problem: { file: 'checkpoints.txt', line: 1 } });
  });

  it('[L6] an export signed without the proof of an entry is incomplete (2), naming the entry', () => {
    const { files, signer } = exportOf();
    const proofs = files.get(FILES.proofs)!.split('\n').filter((l) => !l.includes('"index":3,'));
    const { manifest } = SignedManifest.parse(JSON.parse(files.get(FILES.manifest)!));
    const copy = new Map(files);
    copy.set(FILES.proofs, proofs.join('\n'));
    copy.set(FILES.manifest, signManifest({ ...manifest, files: { ...manifest.files, [FILES.proofs]: fileDigest(proofs.join('\n')) } }, [signer]));
    expect(verifyExport(copy, [signer])).toMatchObject({ exit: 2, problem: { file: 'proofs.jsonl', entryIndex: 3 } });
    expect(verifyExport(edit(files, FILES.proofs, (lines) => lines.filter((l) => !l.includes('"index":3,'))), [signer])).toMatchObject({ exit: 1, problem: { file: 'proofs.jsonl', entryIndex: 3 } });
  });
});
