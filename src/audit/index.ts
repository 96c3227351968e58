/**
 * The audit log's core (PRODUCT L1-L8, PROTOCOL L9): framework-free, no store and no gateway imported, so the CLI's
 * offline verifier and the gateway share one implementation.
 *
 * Built here: canonical JSON (RFC 8785) and digests; the RFC 9162 Merkle tree with inclusion and consistency proofs;
 * C2SP signed notes and checkpoints (Ed25519, node:crypto); receipts (compact JWS, EdDSA); the key file, keys from
 * config, rotation and the audit-keys document; the export's files and the offline verifier.
 *
 * What the gateway wiring still needs (the next step, in src/gateway/audit/ and the stores):
 * 1. An append-only `audit` table in BOTH stores (sqlite.ts, memory.ts; postgres too) with the store contract suite
 *    covering it: rows (index, line = entryLine(entry), leaf hash, the answers' salt and text kept apart), appended in
 *    the SAME transaction as the change each records (question asked/notified/answered/skipped/expired/cancelled,
 *    policy allowed/denied, grant made/revoked, policy loaded; escalated/acknowledged/handed off once routing lands),
 *    never updated or deleted. Index = the next integer under the transaction, so two gateways leave no gap.
 * 2. Checkpoint duty (a D3 duty, one signer at a time across gateways): every 256 entries or 60 s sign
 *    signCheckpoint(origin, tree, signerOf(keys)) after verifyConsistency against the last signed one; keep the notes.
 * 3. Keys at start: keysFromConfig(config.audit) else loadOrCreateKeyFile(auditKeyFileIn(data folder)) (the folder as
 *    secretKeyFileOf picks it: beside the SQLite file, beside --config on PostgreSQL); on AuditKeyError run unsigned
 *    (L8: `audit: unsigned` in the start line and to admins, no receipts, export only with --unsigned). Add `audit`
 *    (AuditConfig) to GatewayConfig; serve auditKeysDocument(keys) at GET /.well-known/askdock/audit-keys.
 * 4. Self-check (L7) at start and before each checkpoint: rebuild the tree from the stored lines and compare with the
 *    last signed checkpoint; on a mismatch log it, send `audit.integrity {ok:false, detail}` to operator.admin, show the
 *    Control UI banner, and sign nothing over it until `askdock audit acknowledge` (itself an entry).
 * 5. Receipts (L4/L9): signReceipt(payload, signer) when a question is decided, carried on question.waitAnswer,
 *    question.get, question.resolved, the SDK's result, `askdock ask --json` and the hook's log.
 * 6. Protocol methods (L9): audit.checkpoint {sign?}, audit.proof {index, size?} (MerkleTree.inclusionProof),
 *    audit.export {since?, until?, sessionKey?, agentId?, redact?} streaming buildExport's files to
 *    `askdock audit export` (writeExportDir; refuse a guest-scoped identity), event audit.integrity.
 */
export { canonicalJson, digestOf, saltedDigestOf, SALT_BYTES } from './canonical.ts';
export { AUDIT_EVENTS, AuditEntry, entryLeaf, entryLine } from './entry.ts';
export { buildExport, signCheckpoint, ExportError, type ExportInput, type KeptAnswer } from './export.ts';
export { readExportDir, writeExportDir } from './export-dir.ts';
export { FILES, type ExportFiles } from './export-format.ts';
export {
  AuditConfig,
  AuditKeyError,
  auditKeyFileIn,
  auditKeysDocument,
  keysFromConfig,
  loadOrCreateKeyFile,
  rotateKeyFile,
  signerOf,
  type DatedKey,
} from './keys.ts';
export { MerkleTree, leafHash, verifyConsistency, verifyInclusion } from './merkle.ts';
export { formatCheckpoint, formatVerifierKey, openNote, parseCheckpoint, parseVerifierKey, signNote } from './note.ts';
export { ReceiptPayload, signReceipt, verifyReceipt } from './receipt.ts';
export { verifyExport, type VerifyResult } from './verify.ts';
