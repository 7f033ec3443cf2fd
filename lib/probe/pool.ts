// Runs `work` over `items` with at most `limit` in flight; results keep the input order.
export async function mapPool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Math.max(1, Math.min(limit, items.length));
  const run = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: lanes }, run));
  return results;
}

/**
 * Like mapPool, with the bound per group: items whose `groupOf` is the same (an artifact's
 * host) run at most `limit` at a time, different groups side by side. Results keep the input order.
 */
export async function mapPoolGrouped<T, R>(items: readonly T[], groupOf: (item: T) => string, limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const groups = new Map<string, number[]>();
  items.forEach((item, i) => {
    const g = groupOf(item);
    const list = groups.get(g);
    if (list) list.push(i);
    else groups.set(g, [i]);
  });
  const results: R[] = new Array<R>(items.length);
  await Promise.all(
    [...groups.values()].map((indexes) =>
      mapPool(indexes, limit, async (i) => {
        results[i] = await work(items[i] as T, i);
      }),
    ),
  );
  return results;
}
