/** How long conversations waited for a browser context: a count of all, percentiles of the newest. */

/** Waits kept for the percentiles (the newest; the count of all is reported). */
export const WAIT_SAMPLES = 1_000;

/** The waits as stats report them. */
export interface WaitSummary {
  count: number;
  sampled: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

/** The newest WAIT_SAMPLES waits and the count of all. */
export class WaitStats {
  private readonly samples: number[] = [];
  private count = 0;

  note(ms: number): void {
    this.count++;
    this.samples.push(ms);
    if (this.samples.length > WAIT_SAMPLES) this.samples.shift();
  }

  summary(): WaitSummary {
    return {
      count: this.count,
      sampled: this.samples.length,
      p50_ms: nearestRank(this.samples, 50),
      p95_ms: nearestRank(this.samples, 95),
    };
  }
}

/** The nearest-rank percentile of a list (null when empty). */
function nearestRank(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
