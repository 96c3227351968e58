/** No request nests deeper than this; junk that does costs JSON.parse milliseconds per frame (and stack in every walk after). */
export const MAX_FRAME_DEPTH = 64;

/**
 * Whether a JSON text nests objects and arrays deeper than `limit`, read in one pass over its bytes before any parsing.
 * Brackets inside strings do not count.
 */
export function nestsDeeperThan(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
