import { describe, expect, it } from 'vitest';
import { mapPool, mapPoolGrouped } from '../../../lib/probe/pool';

/** Work that stays in flight until released, recording how many run at once per group. */
function tracker() {
  const inFlight = new Map<string, number>();
  const max = new Map<string, number>();
  let total = 0;
  let maxTotal = 0;
  return {
    max,
    maxTotal: () => maxTotal,
    async run(group: string, ms: number): Promise<void> {
      inFlight.set(group, (inFlight.get(group) ?? 0) + 1);
      total += 1;
      max.set(group, Math.max(max.get(group) ?? 0, inFlight.get(group) ?? 0));
      maxTotal = Math.max(maxTotal, total);
      await new Promise((r) => setTimeout(r, ms));
      inFlight.set(group, (inFlight.get(group) ?? 0) - 1);
      total -= 1;
    },
  };
}

describe('mapPool', () => {
  it('keeps the input order and never exceeds the limit', async () => {
    const t = tracker();
    const out = await mapPool([5, 1, 4, 2, 3, 1, 2, 5, 1, 3], 3, async (ms, i) => {
      await t.run('all', ms);
      return i * 10;
    });
    expect(out).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(t.maxTotal()).toBe(3);
  });
});

describe('mapPoolGrouped', () => {
  it('bounds each group on its own, runs groups side by side and keeps the input order', async () => {
    const t = tracker();
    const items = Array.from({ length: 30 }, (_, i) => ({ host: i % 3 === 0 ? 'cdn.example' : 'site.example', i }));
    const out = await mapPoolGrouped(
      items,
      (x) => x.host,
      6,
      async (x, i) => {
        await t.run(x.host, 3);
        return `${x.host}#${i}`;
      },
    );
    expect(out).toEqual(items.map((x, i) => `${x.host}#${i}`));
    expect(t.max.get('site.example')).toBe(6);
    expect(t.max.get('cdn.example')).toBe(6);
    // Both hosts' lanes were busy at once: 12 in flight.
    expect(t.maxTotal()).toBe(12);
  });

  it('handles no items', async () => {
    expect(
      await mapPoolGrouped(
        [],
        () => 'x',
        6,
        async () => 1,
      ),
    ).toEqual([]);
  });
});
