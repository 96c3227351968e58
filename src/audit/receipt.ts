import * as z from 'zod';
import { builtShape, checkBuilt, type FieldKinds } from './built-fields.ts';
import { canonicalJson, parseCanonical } from './canonical.ts';
import { ed25519Sign, ed25519Verify, exactBytes } from './ed25519.ts';
import type { SignerKey, VerifierKey } from './note.ts';

const digest = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a base64url SHA-256 digest');

/**
 * L4: what a receipt says. Strict: a field not listed here (an answer's text, a secret) makes the receipt refuse to be
 * built, rather than being signed into a token that leaves the gateway.
 */
export const ReceiptPayload = z
  .object({
    v: z.literal(1),
    iss: z.string().min(1),
    questionId: z.string().min(1),
    kind: z.string().min(1),
    askedBy: z.string().min(1),
    agentId: z.string().min(1).optional(),
    sessionKey: z.string().min(1).optional(),
    questionDigest: digest,
    inputDigest: digest.optional(),
    status: z.enum(['answered', 'skipped', 'expired', 'cancelled', 'allowed', 'denied']),
    answersDigest: digest.optional(),
    decidedBy: z.enum(['person', 'policy', 'grant', 'timeout']),
    resolvedBy: z.object({ identity: z.string().min(1), surface: z.string().min(1), atMs: z.number().int().nonnegative() }).strict().optional(),
    rules: z.array(z.string().min(1)).optional(),
    grantId: z.string().min(1).optional(),
    entryIndex: z.number().int().nonnegative(),
    iat: z.number().int().nonnegative(),
  })
  .strict();
export type ReceiptPayload = z.infer<typeof ReceiptPayload>;

export class ReceiptError extends Error {
  readonly code = 'AUDIT_RECEIPT';
}

function checkPayload(value: unknown): ReceiptPayload {
  const parsed = ReceiptPayload.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
  throw new ReceiptError(`receipt payload ${issue.path.join('.') || '$'}: ${issue.message}${keys}`);
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** The protected header is the same for every receipt of a key: its base64url canonical JSON, made once per key. */
const headers = new WeakMap<SignerKey, string>();
function headerOf(key: SignerKey): string {
  let header = headers.get(key);
  if (header === undefined) {
    header = b64(canonicalJson({ alg: 'EdDSA', kid: key.keyId.toString('hex') }));
    headers.set(key, header);
  }
  return header;
}

function signPayloadJson(payloadJson: string, key: SignerKey): string {
  const input = `${headerOf(key)}.${b64(payloadJson)}`;
  return `${input}.${ed25519Sign(key.privateKey, input).toString('base64url')}`;
}

/** A compact JWS (RFC 7515), alg EdDSA, kid the signed-note key id; header and payload are canonical JSON. */
export function signReceipt(payload: ReceiptPayload, key: SignerKey): string {
  return signPayloadJson(canonicalJson(checkPayload(payload)), key);
}

/** ReceiptPayload's fields by kind, for what the gateway builds (built-fields.ts); a field added above fails to compile here. */
const PAYLOAD_KINDS = {
  v: 'one',
  iss: 'text',
  questionId: 'text',
  kind: 'text',
  askedBy: 'text',
  agentId: 'text',
  sessionKey: 'text',
  questionDigest: 'digest',
  inputDigest: 'digest',
  status: ReceiptPayload.shape.status.options,
  answersDigest: 'digest',
  decidedBy: ReceiptPayload.shape.decidedBy.options,
  resolvedBy: { fields: { identity: 'text', surface: 'text', atMs: 'count' }, required: ['identity', 'surface', 'atMs'] },
  rules: 'texts',
  grantId: 'text',
  entryIndex: 'count',
  iat: 'count',
} as const satisfies Record<keyof ReceiptPayload, FieldKinds[string]>;
const PAYLOAD_SHAPE = builtShape(PAYLOAD_KINDS, ['v', 'iss', 'questionId', 'kind', 'askedBy', 'questionDigest', 'status', 'decidedBy', 'entryIndex', 'iat']);
const PAYLOAD_NAME = { name: 'receipt payload', listedIn: 'a receipt' };

/**
 * The same receipt, for a payload the gateway built itself: its fields and values checked in one pass (a field not
 * listed, such as an answer's text, or a value not of its field's kind is refused, naming the field), not by the
 * schema parse that what comes from outside goes through (`signReceipt`, `verifyReceipt`).
 */
export function signBuiltReceipt(payload: ReceiptPayload, key: SignerKey): string {
  checkBuilt(PAYLOAD_NAME, PAYLOAD_SHAPE, payload, (message) => new ReceiptError(message));
  return signPayloadJson(canonicalJson(payload), key);
}

export type CheckedReceipt =
  | { ok: true; payload: ReceiptPayload; key: VerifierKey }
  | { ok: false; problem: 'malformed' | 'unknown-key' | 'bad-signature'; detail: string };

const SEGMENT = /^[A-Za-z0-9_-]+$/;

export function verifyReceipt(jws: string, trusted: VerifierKey[]): CheckedReceipt {
  const parts = jws.trim().split('.');
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p))) return { ok: false, problem: 'malformed', detail: 'not a compact JWS (three base64url parts)' };
  const [head, body, sig] = parts;
  let header: { alg?: unknown; kid?: unknown; crit?: unknown };
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, problem: 'malformed', detail: 'the JWS header is not JSON' };
  }
  if (header.alg !== 'EdDSA') return { ok: false, problem: 'malformed', detail: `alg must be EdDSA, got ${JSON.stringify(header.alg)}` };
  if (header.crit !== undefined) return { ok: false, problem: 'malformed', detail: 'crit header parameters are not understood here' };
  const key = trusted.find((k) => k.keyId.toString('hex') === header.kid);
  if (!key) return { ok: false, problem: 'unknown-key', detail: `signed by key id ${JSON.stringify(header.kid)}, which is not trusted here` };
  if (!ed25519Verify(key.publicKey, `${head}.${body}`, exactBytes(sig, 'base64url')))
    return { ok: false, problem: 'bad-signature', detail: `the signature of ${key.name} (${key.keyId.toString('hex')}) does not verify` };
  try {
    return { ok: true, payload: checkPayload(parseCanonical(Buffer.from(body, 'base64url').toString('utf8'))), key };
  } catch (err) {
    return { ok: false, problem: 'malformed', detail: (err as Error).message };
  }
}
