import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'v1';

/** K1: the key file lives beside the database. */
export function secretKeyFileFor(dbPath: string): string {
  return join(dirname(resolve(dbPath)), 'secrets.key');
}

/**
 * K1: values are sealed with AES-256-GCM before they reach any store, so every Store implementation holds
 * ciphertext only. The secret's name is authenticated data: a ciphertext moved to another name does not open.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** A key that lives only as long as the process (memory stores, `--local`). */
  static ephemeral(): SecretBox {
    return new SecretBox(randomBytes(KEY_BYTES));
  }

  /** Reads the key file, or creates it with mode 0600 (only the gateway's user may read it). */
  static fromKeyFile(file: string): SecretBox {
    const path = resolve(file);
    try {
      return new SecretBox(readKey(path));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    mkdirSync(dirname(path), { recursive: true });
    const key = randomBytes(KEY_BYTES);
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, key.toString('base64') + '\n');
      } finally {
        closeSync(fd);
      }
      chmodSync(path, 0o600);
      return new SecretBox(key);
    } catch (err) {
      // Another gateway on the same directory made it first: use theirs.
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return new SecretBox(readKey(path));
      throw err;
    }
  }

  /**
   * A value that tells keys apart without revealing them (an HMAC of a fixed text): several gateways on one database
   * compare it to know they seal with the same key.
   */
  fingerprint(): string {
    return `${FORMAT}:${createHmac('sha256', this.key).update('askdock secrets key check').digest('base64url')}`;
  }

  seal(name: string, value: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(name, 'utf8'));
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  open(name: string, sealed: string): string {
    const [format, data] = sealed.split(':', 2);
    if (format !== FORMAT || data === undefined) throw new Error(`secret "${name}": unknown ciphertext format`);
    const raw = Buffer.from(data, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(name, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(`secret "${name}" cannot be decrypted: the key file does not match the one it was stored with`);
    }
  }
}

function readKey(path: string): Buffer {
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${path}: not an askdock secrets key (expected ${KEY_BYTES} bytes, base64)`);
  // A key others can read protects nothing: tighten it rather than carry on quietly.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return key;
}
