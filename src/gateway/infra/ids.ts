import { randomFillSync } from 'node:crypto';

const ID_BYTES = 12;
// One system call fills many ids: per-id randomBytes showed up in profiles under load.
const pool = Buffer.alloc(ID_BYTES * 256);
let offset = pool.length;

/** Random ids with a kind prefix (`q_`, `s_`, `m_`, `r_`, `c_`): URL-safe and starting with a letter. */
export function newId(prefix: string): string {
  if (offset + ID_BYTES > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `${prefix}_${id}`;
}
