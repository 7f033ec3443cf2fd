// Summaries of timing samples: median, quartiles, p95. Quantiles interpolate linearly
// between order statistics (the same definition for every figure in docs/benchmarks.md).

export interface Summary {
  n: number;
  median: number;
  p25: number;
  p75: number;
  p95: number;
  min: number;
  max: number;
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (pos - lo);
}

export function summarize(samples: readonly number[]): Summary {
  const s = [...samples].sort((x, y) => x - y);
  return {
    n: s.length,
    median: quantile(s, 0.5),
    p25: quantile(s, 0.25),
    p75: quantile(s, 0.75),
    p95: quantile(s, 0.95),
    min: s[0] ?? Number.NaN,
    max: s[s.length - 1] ?? Number.NaN,
  };
}

/** A number with a sensible number of digits for a table cell. */
export function fmt(v: number, digits?: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  const d = digits ?? (Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : Math.abs(v) >= 1 ? 2 : 3);
  return v.toFixed(d);
}

/** "median (IQR p25–p75)" in one cell. */
export function cell(s: Summary, unit = 'ms'): string {
  return `${fmt(s.median)} ${unit} (IQR ${fmt(s.p25)}–${fmt(s.p75)})`;
}

/** Runs `fns` in rotation (A B C A B C …) `rounds` times and returns each one's samples. */
export async function interleave(rounds: number, fns: ReadonlyArray<() => Promise<number>>): Promise<number[][]> {
  const out = fns.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    // Alternate the order every round (ABAB, then BABA) so that neither side always goes first.
    const order = fns.map((_, i) => i);
    if (r % 2 === 1) order.reverse();
    for (const i of order) (out[i] as number[]).push(await (fns[i] as () => Promise<number>)());
  }
  return out;
}

/** Time of one async call in ms. */
export async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** A small deterministic PRNG (mulberry32) so that resampling gives the same interval every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 95 % bootstrap interval of median(a) / median(b), resampling both sides independently. */
export function ratioOfMediansCI(a: readonly number[], b: readonly number[], iterations = 2000): { low: number; high: number } {
  if (a.length === 0 || b.length === 0) return { low: Number.NaN, high: Number.NaN };
  const rnd = prng(0x5eed);
  const pick = (xs: readonly number[]): number[] => Array.from({ length: xs.length }, () => xs[Math.floor(rnd() * xs.length)] as number);
  const ratios: number[] = [];
  for (let i = 0; i < iterations; i++) ratios.push(summarize(pick(a)).median / summarize(pick(b)).median);
  ratios.sort((x, y) => x - y);
  return { low: quantile(ratios, 0.025), high: quantile(ratios, 0.975) };
}

export interface PairedRatio {
  /** Pairs compared. */
  n: number;
  /** Geometric mean of the per-pair ratios a_i / b_i. */
  mean: number;
  /** 95 % bootstrap interval of that mean (pairs resampled together). */
  low: number;
  high: number;
  /** Median of the per-pair differences a_i − b_i, with its 95 % bootstrap interval. */
  added: number;
  addedLow: number;
  addedHigh: number;
}

/**
 * Side-by-side samples (a_i and b_i measured in the same round, one right after the other):
 * the geometric mean of the ratios a_i / b_i and the median difference, each with a 95 %
 * bootstrap interval that resamples whole pairs (deterministic PRNG).
 */
export function pairedRatio(a: readonly number[], b: readonly number[], iterations = 2000): PairedRatio {
  const pairs: [number, number][] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (Number.isFinite(x) && Number.isFinite(y) && x > 0 && y > 0) pairs.push([x, y]);
  }
  const nan = { n: pairs.length, mean: Number.NaN, low: Number.NaN, high: Number.NaN, added: Number.NaN, addedLow: Number.NaN, addedHigh: Number.NaN };
  if (pairs.length === 0) return nan;
  const geo = (ps: readonly [number, number][]): number => Math.exp(ps.reduce((s, [x, y]) => s + Math.log(x / y), 0) / ps.length);
  const diff = (ps: readonly [number, number][]): number => summarize(ps.map(([x, y]) => x - y)).median;
  const rnd = prng(0x9a1d);
  const means: number[] = [];
  const diffs: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const sample = Array.from({ length: pairs.length }, () => pairs[Math.floor(rnd() * pairs.length)] as [number, number]);
    means.push(geo(sample));
    diffs.push(diff(sample));
  }
  means.sort((x, y) => x - y);
  diffs.sort((x, y) => x - y);
  return {
    n: pairs.length,
    mean: geo(pairs),
    low: quantile(means, 0.025),
    high: quantile(means, 0.975),
    added: diff(pairs),
    addedLow: quantile(diffs, 0.025),
    addedHigh: quantile(diffs, 0.975),
  };
}
