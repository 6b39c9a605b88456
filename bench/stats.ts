/** Small statistics for benchmark samples (milliseconds). */
export interface Summary {
  n: number;
  medianMs: number;
  p99Ms: number;
  meanMs: number;
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    n: sorted.length,
    medianMs: at(0.5),
    p99Ms: at(0.99),
    meanMs: sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length),
  };
}

export const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

/**
 * The q-quantile of ascending samples by the nearest-rank method: the smallest sample with at
 * least q of all samples at or below it (so p99.9 of 1,000 samples is the largest but none).
 */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
