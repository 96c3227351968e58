/** How many of a gateway's latest commits are remembered: its notices come soon after its answer, or just before. */
const KEPT = 64;

/**
 * The seqs (first, last) of this gateway's latest commits: a notice of one (a large commit's tell parts of it), heard
 * before its answer came, is no other gateway's.
 */
export class OwnSeqs {
  private readonly ranges: [number, number][] = [];

  /** A commit of this gateway's with these seqs. */
  remember(seqs: readonly number[]): void {
    if (seqs.length === 0) return;
    // In one pass: a spread of a large group's seqs into Math.min/max could overflow the call's arguments.
    let first = seqs[0];
    let last = seqs[0];
    for (const seq of seqs) {
      if (seq < first) first = seq;
      if (seq > last) last = seq;
    }
    this.ranges.push([first, last]);
    if (this.ranges.length > KEPT) this.ranges.shift();
  }

  /** Whether `seq` is one of this gateway's latest commits. */
  has(seq: number): boolean {
    return this.ranges.some(([first, last]) => seq >= first && seq <= last);
  }
}
