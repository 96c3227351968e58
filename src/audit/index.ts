/**
 * The audit log's core (PRODUCT L1-L8, PROTOCOL L9): framework-free, no store and no gateway imported, so the CLI's
 * offline verifier and the gateway share one implementation.
 *
 * Built here: canonical JSON (RFC 8785) and digests; the RFC 9162 Merkle tree with inclusion and consistency proofs;
 * C2SP signed notes and checkpoints (Ed25519, node:crypto); receipts (compact JWS, EdDSA); the key file, keys from
 * config, rotation and the audit-keys document; the export's files and the offline verifier.
 *
 * The gateway's side is src/gateway/audit/ (entries in the changes' transactions, the checkpoint duty and self-check,
 * the keys at start, receipts, the export); docs/audit.md describes both.
 */
export { canonicalJson, digestOf, saltedDigestOf, SALT_BYTES } from './canonical.ts';
export { AUDIT_EVENTS, AuditEntry, builtEntryLine, entryLeaf, entryLine } from './entry.ts';
export { buildEvidence, type StoredLine } from './evidence.ts';
export { answersText, buildExport, signCheckpoint, ExportError, type ExportInput, type KeptAnswer } from './export.ts';
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
export { ReceiptPayload, signBuiltReceipt, signReceipt, verifyReceipt } from './receipt.ts';
export { verifyExport, type VerifyResult } from './verify.ts';
