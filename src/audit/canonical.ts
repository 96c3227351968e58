import { createHash, hash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** A value that cannot be written as canonical JSON, or a line that is not canonical JSON. */
export class AuditFormatError extends Error {
  readonly code = 'AUDIT_FORMAT';
}

/**
 * RFC 8785 (JCS): sorted keys by UTF-16 code units, ECMAScript number form, no whitespace. Written in one pass over
 * plain values; anything else (no JSON form, a lone surrogate) is left to the checked path, which names what and where.
 */
export function canonicalJson(value: unknown): string {
  try {
    return plain(value);
  } catch {
    return checkedCanonicalJson(value);
  }
}

/** The value checked, then written by the `canonicalize` package: the reference the one-pass writer gives the same text as. */
export function checkedCanonicalJson(value: unknown): string {
  checkJsonValue(value, '$');
  try {
    return canonicalize(value) as string;
  } catch (err) {
    throw new AuditFormatError(`canonical JSON (RFC 8785): ${(err as Error).message}`);
  }
}

/** A lone surrogate (JCS refuses it): with the u flag a pair is one code point, not matched. */
const LONE_SURROGATE = /\p{Cs}/u;
class NotPlain extends Error {}

/** What JSON.stringify escapes in a string (a quote, a backslash, a control character), or a surrogate. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON.stringify writes it: most need no escape and are only quoted. */
const text = (s: string): string => {
  if (!ESCAPED.test(s)) return `"${s}"`;
  if (LONE_SURROGATE.test(s)) throw new NotPlain();
  return JSON.stringify(s);
};

/** Strings and numbers as JSON.stringify writes them (RFC 8785 section 3.2.2 is that form). */
function plain(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return text(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new NotPlain();
      // A finite number's JSON is Number::toString (-0 writes 0 either way).
      return String(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) throw new NotPlain();
          out += (i ? ',' : '') + plain(value[i]);
        }
        return out + ']';
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new NotPlain();
      const record = value as Record<string, unknown>;
      let out = '{';
      for (const key of Object.keys(record).sort()) {
        const item = record[key];
        if (item === undefined) continue;
        out += (out.length > 1 ? ',' : '') + text(key) + ':' + plain(item);
      }
      return out + '}';
    }
    default:
      throw new NotPlain();
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
  // One part (a digest's JSON, a leaf, a node) in one call: no hash object made.
  if (parts.length === 1) return hash('sha256', parts[0], 'buffer');
  const running = createHash('sha256');
  for (const part of parts) running.update(part);
  return running.digest();
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
