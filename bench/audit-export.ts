/**
 * L5/L6 (issue 56, context): an export of 100,000 entries built and verified in this process by the library the gateway
 * and `askdock audit verify` use (src/audit): the entries' lines, the tree, a checkpoint every 256 entries, one
 * inclusion proof per entry and one consistency proof per pair of checkpoints, then every check of the verifier. The
 * gateway's reading of the rows and the paging to the CLI are not in it.
 */
import { performance } from 'node:perf_hooks';
import { buildExport, entryLeaf, MerkleTree, signCheckpoint, verifyExport, type AuditEntry } from '../src/audit/index.ts';
import { newSeed } from '../src/audit/ed25519.ts';
import { signerFromSeed } from '../src/audit/note.ts';

export type ExportFigures = { entries: number; checkpoints: number; exportS: number; verifyS: number; megabytes: number };

export function measureExportVerify(count = 100_000, every = 256): ExportFigures {
  const origin = 'askdock.local/audit-bench';
  const key = { ...signerFromSeed(origin, newSeed()), validFrom: '2026-12-01T00:00:00.000Z' };
  const digest = 'A'.repeat(43);
  const entries: AuditEntry[] = Array.from({ length: count }, (_, index) => ({ v: 1, index, atMs: 1_780_000_000_000 + index, event: index % 2 ? 'question.answered' : 'question.asked', identity: 'agent', questionId: `q-${index >> 1}`, sessionKey: 's-bench', questionDigest: digest }));
  const t0 = performance.now();
  const tree = new MerkleTree();
  const checkpoints: string[] = [];
  for (const entry of entries) {
    tree.append(entryLeaf(entry));
    if (tree.size % every === 0 || tree.size === count) checkpoints.push(signCheckpoint(origin, tree, key));
  }
  const files = buildExport({ origin, tree, entries, checkpoints, keys: [key], signer: key, createdAtMs: Date.now() });
  const exportS = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const result = verifyExport(files, [key]);
  const verifyS = (performance.now() - t1) / 1000;
  if (result.exit !== 0) throw new Error(`audit bench: the export does not verify: ${JSON.stringify(result)}`);
  const megabytes = [...files.values()].reduce((n, text) => n + Buffer.byteLength(text), 0) / 1e6;
  return { entries: count, checkpoints: checkpoints.length, exportS, verifyS, megabytes };
}
