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
