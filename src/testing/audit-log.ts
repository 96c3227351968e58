import { digestOf, saltedDigestOf } from '../audit/canonical.ts';
import { newSeed } from '../audit/ed25519.ts';
import { entryLeaf, type AuditEntry } from '../audit/entry.ts';
import { buildExport, signCheckpoint, type ExportInput, type KeptAnswer } from '../audit/export.ts';
import type { DatedKey } from '../audit/keys.ts';
import { MerkleTree } from '../audit/merkle.ts';
import { signerFromSeed } from '../audit/note.ts';
import { signReceipt } from '../audit/receipt.ts';

export const ORIGIN = 'askdock.test/audit';
export const newKey = (name = ORIGIN): DatedKey => ({ ...signerFromSeed(name, newSeed()), validFrom: '2026-12-01T00:00:00.000Z' });

/** An in-memory log as the gateway will keep one: asked / answered pairs over two sessions, answers kept with salts. */
export function makeLog(n: number): { entries: AuditEntry[]; answers: KeptAnswer[] } {
  const entries: AuditEntry[] = [];
  const answers: KeptAnswer[] = [];
  for (let index = 0; index < n; index++) {
    const q = Math.floor(index / 2);
    const base = { v: 1 as const, index, atMs: 1_764_000_000_000 + index * 1000, questionId: `q-${q}`, sessionKey: q % 2 ? 'web' : 'cli', agentId: 'claude' };
    if (index % 2 === 0) {
      entries.push({ ...base, event: 'question.asked', identity: 'integrations', kind: 'approval', questionDigest: digestOf({ q }), inputDigest: digestOf({ tool: 'Bash', q }) });
      continue;
    }
    const salt = Buffer.alloc(16, index);
    const given = [`=cmd|' /C calc'!A0 ${q}`];
    answers.push({ entryIndex: index, questionId: `q-${q}`, salt, answers: given });
    entries.push({
      ...base,
      event: 'question.answered',
      identity: 'ana',
      surface: 'dock',
      kind: 'approval',
      status: 'answered',
      decidedBy: 'person',
      questionDigest: digestOf({ q }),
      inputDigest: digestOf({ tool: 'Bash', q }),
      answersDigest: saltedDigestOf(given, salt),
      rules: ['ask-bash'],
    });
  }
  return { entries, answers };
}

/** Exports `entries` of a log of `size` entries, with checkpoints signed at `at` sizes and a fresh one at the end. */
type ExportOpts = { size?: number; at?: number[]; signer?: DatedKey; pick?: (e: AuditEntry) => boolean } & Partial<Omit<ExportInput, 'signer'>>;

export function exportOf({ size = 12, at = [4, 9], signer = newKey(), pick = () => true, ...rest }: ExportOpts = {}) {
  const log = makeLog(size);
  const tree = new MerkleTree(log.entries.map(entryLeaf));
  const sizes = [...at, tree.size];
  const entries = log.entries.filter(pick);
  const picked = new Set(entries.map((e) => e.index));
  const files = buildExport({
    origin: ORIGIN,
    tree,
    entries,
    checkpoints: sizes.map((size) => signCheckpoint(ORIGIN, tree, signer, size)),
    keys: [signer],
    signer,
    answers: log.answers.filter((a) => picked.has(a.entryIndex)),
    createdAtMs: 1_765_000_000_000,
    ...rest,
  });
  return { files, signer, log, tree };
}

/** The receipt the gateway would give for the answer recorded at `entryIndex`. */
export function receiptFor(entry: AuditEntry, signer: DatedKey): string {
  return signReceipt(
    {
      v: 1,
      iss: ORIGIN,
      questionId: entry.questionId!,
      kind: entry.kind ?? 'approval',
      askedBy: 'integrations',
      ...(entry.sessionKey !== undefined ? { sessionKey: entry.sessionKey } : {}),
      ...(entry.agentId !== undefined ? { agentId: entry.agentId } : {}),
      questionDigest: entry.questionDigest!,
      inputDigest: entry.inputDigest,
      status: (entry.status ?? 'answered') as 'answered',
      answersDigest: entry.answersDigest,
      decidedBy: (entry.decidedBy ?? 'person') as 'person',
      ...(entry.rules ? { rules: entry.rules } : {}),
      ...(entry.identity ? { resolvedBy: { identity: entry.identity, surface: entry.surface ?? 'dock', atMs: entry.atMs } } : {}),
      entryIndex: entry.index,
      iat: Math.floor(entry.atMs / 1000),
    },
    signer,
  );
}
