import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/** Ed25519 through node:crypto, with keys as the raw 32-byte seed and public key signed notes and JWKs carry. */
const PKCS8_SEED_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
export const ED25519_BYTES = 32;

export type Ed25519Pair = { privateKey: KeyObject; publicKey: Buffer };

export function pairFromSeed(seed: Buffer): Ed25519Pair {
  if (seed.length !== ED25519_BYTES) throw new RangeError(`an Ed25519 private key is ${ED25519_BYTES} bytes, got ${seed.length}`);
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_SEED_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  return { privateKey, publicKey: rawPublicKey(privateKey) };
}

export function newSeed(): Buffer {
  const { privateKey } = generateKeyPairSync('ed25519');
  return seedOf(privateKey);
}

export function seedOf(privateKey: KeyObject): Buffer {
  return Buffer.from(privateKey.export({ format: 'jwk' }).d as string, 'base64url');
}

function rawPublicKey(key: KeyObject): Buffer {
  return Buffer.from(createPublicKey(key).export({ format: 'jwk' }).x as string, 'base64url');
}

export function publicKeyObject(raw: Buffer): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}

export function ed25519Sign(privateKey: KeyObject, message: Buffer | string): Buffer {
  return sign(null, typeof message === 'string' ? Buffer.from(message, 'utf8') : message, privateKey);
}

export function ed25519Verify(publicKey: Buffer, message: Buffer | string, signature: Buffer): boolean {
  if (publicKey.length !== ED25519_BYTES || signature.length !== 64) return false;
  try {
    return verify(null, typeof message === 'string' ? Buffer.from(message, 'utf8') : message, publicKeyObject(publicKey), signature);
  } catch {
    return false;
  }
}

/**
 * L6: a signature's text decoded only when it is the one way to write those bytes. Base64 leaves spare bits in its last
 * character, so a lenient decoder reads an edited signature as the signed one; an edited character must not verify.
 */
export function exactBytes(text: string, encoding: 'base64' | 'base64url'): Buffer {
  const bytes = Buffer.from(text, encoding);
  // An empty buffer never verifies: ed25519Verify wants 64 bytes.
  return bytes.toString(encoding) === text ? bytes : Buffer.alloc(0);
}
