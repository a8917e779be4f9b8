// Raw samples and k6's percentile rule, one implementation for every percentile either engine
// reports (the Node runner's thresholds and tables, the per-endpoint figures read from k6's
// per-request output, the baseline comparison). k6 (metrics/sink.go, TrendSink.P, v0.x to v1.x)
// keeps every sample of a Trend and, for p in [0, 1]: 0 with no sample, the sample itself with
// one, else the sorted samples interpolated linearly at rank p·(n − 1). An HDR histogram's
// getValueAtPercentile rounds the rank up instead (p95 of 20 samples is the largest), which with
// the few samples per endpoint of a free-tier run turned one slow answer into a failed p95.
// No Node built-ins: the k6 bundles import the model.

/** k6's percentile of ascending `sorted` (p in [0, 1]); 0 when empty, as k6 reads an empty Trend. */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  if (n === 1) return sorted[0];
  const i = p * (n - 1);
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (i - lo);
}

/** A growable list of numbers (ms) with k6's percentiles; sorted lazily, in place. */
export class Samples {
  private buf: Float64Array;
  private n = 0;
  private sorted = true;
  private sum = 0;

  constructor(capacity = 16) { this.buf = new Float64Array(capacity); }

  get count(): number { return this.n; }

  add(v: number): void {
    if (this.n === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    if (this.n > 0 && v < this.buf[this.n - 1]) this.sorted = false;
    this.buf[this.n++] = v;
    this.sum += v;
  }

  addAll(other: Samples): void {
    for (const v of other.values()) this.add(v);
  }

  /** The samples, ascending (a view: do not keep it across add()). */
  values(): Float64Array {
    const view = this.buf.subarray(0, this.n);
    if (!this.sorted) { view.sort(); this.sorted = true; }
    return view;
  }

  percentile(p: number): number { return percentileOfSorted(this.values(), p); }
  max(): number { return this.n ? this.values()[this.n - 1] : 0; }
  min(): number { return this.n ? this.values()[0] : 0; }
  mean(): number { return this.n ? this.sum / this.n : 0; }
}

/** Rounds a time in ms to the nanosecond: keeps every comparison with a bound given in ms, drops float noise. */
export const ns = (ms: number): number => Math.round(ms * 1e6) / 1e6;

/**
 * A uniform random subset of at most `cap` of the values, without replacement (a partial
 * Fisher–Yates shuffle), seeded so that the same run stores the same subset; ascending.
 * All of them when there are no more than `cap`.
 */
export function reservoir(values: ArrayLike<number>, cap: number, seed = 1): number[] {
  const all = Array.from(values);
  if (all.length > cap) {
    const rand = mulberry32(seed);
    for (let i = 0; i < cap; i++) {
      const j = i + Math.floor(rand() * (all.length - i));
      [all[i], all[j]] = [all[j], all[i]];
    }
    all.length = cap;
  }
  return all.sort((a, b) => a - b);
}

/** A small seeded PRNG in [0, 1) (mulberry32): reservoirs and bootstrap resamples repeat run to run. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
