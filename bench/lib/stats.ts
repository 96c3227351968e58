/** Nearest-rank percentile of an ascending list; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export type Summary = { n: number; p50: number; p95: number; p99: number; max: number };

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? NaN),
  };
}

export function median(samples: readonly number[]): number {
  return percentile([...samples].sort((a, b) => a - b), 50);
}

export function round(x: number, digits = 2): number {
  return Number.isFinite(x) ? Number(x.toFixed(digits)) : x;
}

/** a / b, rounded; NaN rather than Infinity when the baseline is missing. */
export function ratio(a: number, b: number): number {
  return b > 0 && Number.isFinite(a) ? round(a / b) : NaN;
}
