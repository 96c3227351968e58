// S5: how far V8 lets the old generation grow past what survived its last full collection before it collects again.
// V8's own factor (up to 4x for a heap that collects fast, as a small gateway's does) lets garbage, and the Buffers it
// still holds, pile up for tens of MB between full collections: after a burst of frames the gateway's RSS stood 20 to 60 MB
// over its start depending only on where that cycle was (bench/FINDINGS.md 38). 1.2x keeps that garbage within a fifth
// of the live heap (a gateway's is 15-25 MB), at the price of more full collections, each as short as the live heap is small.
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 20;

/**
 * Sets V8's old-generation growing factor to 1 + HEAP_GROWING_PERCENT / 100 for this process. V8 reads it at every
 * full collection, so it holds from the next one on; a gateway process calls it once at start, before it listens.
 */
export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
