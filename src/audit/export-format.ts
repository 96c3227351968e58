import * as z from 'zod';
import { canonicalJson, sha256 } from './canonical.ts';
import { ed25519Sign, ed25519Verify, exactBytes } from './ed25519.ts';
import type { SignerKey, VerifierKey } from './note.ts';

/** L5: the files of an export, by name. */
export const FILES = {
  entries: 'entries.jsonl',
  checkpoints: 'checkpoints.txt',
  proofs: 'proofs.jsonl',
  keys: 'keys.json',
  manifest: 'manifest.json',
  answers: 'answers.jsonl',
  csv: 'entries.csv',
} as const;
export type ExportFiles = Map<string, string>;

const b64 = z.string().regex(/^[A-Za-z0-9+/]{43}=$/, 'a base64 SHA-256 hash');
const count = z.number().int().nonnegative();

/** proofs.jsonl: one inclusion proof per exported entry (against the last checkpoint), one consistency proof per pair of checkpoints. */
export const ProofLine = z.discriminatedUnion('type', [
  z.object({ type: z.literal('inclusion'), index: count, treeSize: count, hashes: z.array(b64) }).strict(),
  z.object({ type: z.literal('consistency'), from: count, to: count, hashes: z.array(b64) }).strict(),
]);
export type ProofLine = z.infer<typeof ProofLine>;

/** answers.jsonl: an answer's text with the salt that makes its entry's digest. */
export const AnswerLine = z.object({ entryIndex: count, questionId: z.string().min(1), salt: z.string().regex(/^[A-Za-z0-9_-]{22}$/), answers: z.unknown() }).strict();
export type AnswerLine = z.infer<typeof AnswerLine>;

export const ExportFilter = z
  .object({
    since: count.optional(),
    until: count.optional(),
    sessionKey: z.string().optional(),
    agentId: z.string().optional(),
    /** With agentId: the entries in range whose question's asker the log does not record, picked by the agentId they carry. */
    agentUnknown: count.optional(),
  })
  .strict();
export type ExportFilter = z.infer<typeof ExportFilter>;

export const Manifest = z
  .object({
    v: z.literal(1),
    origin: z.string().min(1),
    createdAtMs: count,
    treeSize: count,
    root: b64,
    /** The entries as exported; `contiguous` says no filter left any out between the first and the last. */
    entries: z.object({ first: count, last: count, count, contiguous: z.boolean() }).strict().nullable(),
    filter: ExportFilter,
    redacted: z.array(z.literal('answers')),
    files: z.record(z.string(), z.string().regex(/^[A-Za-z0-9_-]{43}$/)),
  })
  .strict();
export type Manifest = z.infer<typeof Manifest>;

const ManifestSignature = z.object({ name: z.string().min(1), keyId: z.string().regex(/^[0-9a-f]{8}$/), sig: z.string().min(1) }).strict();
export const SignedManifest = z.object({ manifest: Manifest, signatures: z.array(ManifestSignature).min(1) }).strict();
export type SignedManifest = z.infer<typeof SignedManifest>;

/** Domain separation: a manifest signature can never pass for a checkpoint's or a receipt's. */
const MANIFEST_CONTEXT = 'askdock-audit-manifest/v1\n';
const manifestMessage = (m: Manifest) => MANIFEST_CONTEXT + canonicalJson(m);

export const fileDigest = (text: string) => sha256(text).toString('base64url');

export function signManifest(manifest: Manifest, signers: SignerKey[]): string {
  const signatures = signers.map((k) => ({ name: k.name, keyId: k.keyId.toString('hex'), sig: ed25519Sign(k.privateKey, manifestMessage(manifest)).toString('base64') }));
  return JSON.stringify({ manifest, signatures }, null, 2) + '\n';
}

export type ManifestCheck = { ok: true; signedBy: VerifierKey } | { ok: false; problem: 'bad-signature' | 'unknown-key'; detail: string; names: string[] };

export function checkManifestSignature(signed: SignedManifest, trusted: VerifierKey[]): ManifestCheck {
  let signedBy: VerifierKey | undefined;
  for (const s of signed.signatures) {
    const key = trusted.find((k) => k.name === s.name && k.keyId.toString('hex') === s.keyId);
    if (!key) continue;
    if (!ed25519Verify(key.publicKey, manifestMessage(signed.manifest), exactBytes(s.sig, 'base64')))
      return { ok: false, problem: 'bad-signature', detail: `the signature of ${key.name} (${s.keyId}) does not verify`, names: [s.name] };
    signedBy ??= key;
  }
  const names = signed.signatures.map((s) => `${s.name} (${s.keyId})`);
  return signedBy ? { ok: true, signedBy } : { ok: false, problem: 'unknown-key', detail: `signed only by keys not trusted here: ${names.join(', ')}`, names };
}

/** Splits a text file into its lines, 1-based, without the final empty one. */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * checkpoints.txt holds signed notes one after another, each followed by an empty line. A checkpoint's text lines are
 * never empty and never start with an em dash, so each note ends at the first empty line after its signatures.
 */
export function splitNotes(text: string): { note: string; line: number }[] {
  const lines = text.split('\n');
  const notes: { note: string; line: number }[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i] === '') {
      i += 1;
      continue;
    }
    const start = i;
    while (i < lines.length && lines[i] !== '') i += 1;
    i += 1;
    while (i < lines.length && lines[i].startsWith('\u2014 ')) i += 1;
    notes.push({ note: lines.slice(start, i).join('\n') + '\n', line: start + 1 });
  }
  return notes;
}
