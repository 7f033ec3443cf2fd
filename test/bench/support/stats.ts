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
