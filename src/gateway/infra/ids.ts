import { randomFillSync } from 'node:crypto';

/**
 * Random bytes taken from a buffer filled by one system call, rather than one call each: per-call `randomBytes` showed up
 * in profiles under load (ids, the answers' salt). Each piece is the CSPRNG's output, handed out once.
 */
class RandomPool {
  private readonly pool: Buffer;
  private offset: number;

  constructor(size: number) {
    this.pool = Buffer.alloc(size);
    this.offset = size;
  }

  /** Where the next `bytes` start, refilling the pool when they do not fit. */
  take(bytes: number): number {
    if (this.offset + bytes > this.pool.length) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    const at = this.offset;
    this.offset += bytes;
    return at;
  }

  /** `bytes` (at most the pool's size) of fresh random bytes, in a buffer of their own. */
  copy(bytes: number): Buffer {
    const at = this.take(bytes);
    return Buffer.from(this.pool.subarray(at, at + bytes));
  }

  text(bytes: number): string {
    const at = this.take(bytes);
    return this.pool.toString('base64url', at, at + bytes);
  }
}

const ID_BYTES = 12;
const ids = new RandomPool(ID_BYTES * 256);
const salts = new RandomPool(4096);

/** Random ids with a kind prefix (`q_`, `s_`, `m_`, `r_`, `c_`): URL-safe and starting with a letter. */
export function newId(prefix: string): string {
  return `${prefix}_${ids.text(ID_BYTES)}`;
}

/** `bytes` random bytes (an answer's salt, L4), at most 4,096. */
export function randomSalt(bytes: number): Buffer {
  return salts.copy(bytes);
}
