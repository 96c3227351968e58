import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** A value that cannot be written as canonical JSON, or a line that is not canonical JSON. */
export class AuditFormatError extends Error {
  readonly code = 'AUDIT_FORMAT';
}

/** RFC 8785 (JCS): sorted keys by UTF-16 code units, ECMAScript number form, no whitespace. */
export function canonicalJson(value: unknown): string {
  checkJsonValue(value, '$');
  try {
    return canonicalize(value) as string;
  } catch (err) {
    throw new AuditFormatError(`canonical JSON (RFC 8785): ${(err as Error).message}`);
  }
}

/** The package drops a function inside an array silently; a record must fail loudly instead, naming where. */
function checkJsonValue(value: unknown, path: string): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new AuditFormatError(`canonical JSON (RFC 8785): ${path} is ${value}, which JSON cannot hold`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => checkJsonValue(item, `${path}[${i}]`));
    return;
  }
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null) {
    for (const [key, item] of Object.entries(value as object)) if (item !== undefined) checkJsonValue(item, `${path}.${key}`);
    return;
  }
  throw new AuditFormatError(`canonical JSON (RFC 8785): ${path} is ${value === undefined ? 'undefined' : `a ${typeof value === 'object' ? value.constructor?.name ?? 'object' : typeof value}`}, which has no JSON form`);
}

/** Parses one line that must already be canonical JSON (what a log entry or a receipt payload is hashed as). */
export function parseCanonical(line: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new AuditFormatError(`not JSON: ${(err as Error).message}`);
  }
  if (canonicalJson(value) !== line) throw new AuditFormatError('not canonical JSON (RFC 8785): keys out of order, spaces or another number form');
  return value;
}

export function sha256(...parts: (Buffer | Uint8Array | string)[]): Buffer {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** L4: base64url SHA-256 of the value's canonical JSON (a question, its input). */
export function digestOf(value: unknown): string {
  return sha256(canonicalJson(value)).toString('base64url');
}

export const SALT_BYTES = 16;

/** L4: the answers' digest, SHA-256(salt || canonical JSON): the salt keeps short answers (yes/no) from being guessed. */
export function saltedDigestOf(value: unknown, salt: Buffer): string {
  if (salt.length !== SALT_BYTES) throw new AuditFormatError(`salt: must be ${SALT_BYTES} bytes, got ${salt.length}`);
  return sha256(salt, canonicalJson(value)).toString('base64url');
}
