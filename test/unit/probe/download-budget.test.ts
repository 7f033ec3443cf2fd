// The per-probe download budget as a meter fetchBounded draws from.
import { describe, expect, it } from 'vitest';
import { downloadBudget } from '../../../lib/probe/download-budget';
import { fetchBounded } from '../../../lib/net/fetch-bounded';
import { serversClosedAfterEach } from '../../support/test-servers';

const serve = serversClosedAfterEach();
const clock = { now: () => Date.now() };

describe('downloadBudget', () => {
  it('reserves, takes and gives back, never past its limit', () => {
    const b = downloadBudget(100);
    expect(b.reserve(60)).toBe(true);
    expect(b.reserve(50)).toBe(false);
    expect(b.take(40)).toBe(true);
    expect(b.exhausted()).toBe(true);
    expect(b.take(1)).toBe(false);
    b.release(30);
    expect(b.used()).toBe(70);
    expect(b.take(Number.NaN)).toBe(false);
    expect(b.reserve(-1)).toBe(false);
    b.release(1000);
    expect(b.used()).toBe(0);
  });

  it('fetchBounded: a declared length that does not fit is refused before its body is read; an unused reservation is given back', async () => {
    const s = await serve({ files: { '/big.md': 'x'.repeat(3000), '/small.md': 'y'.repeat(500) } });
    const b = downloadBudget(2000);
    const big = await fetchBounded((u, i) => fetch(u, i), s.url('/big.md'), { kind: 'skill-md', origin: s.origin, clock, meter: b });
    expect(big).toMatchObject({ kind: 'too-large', budget: true });
    expect(b.used()).toBe(0);
    const small = await fetchBounded((u, i) => fetch(u, i), s.url('/small.md'), { kind: 'skill-md', origin: s.origin, clock, meter: b });
    expect(small.kind).toBe('ok');
    expect(b.used()).toBe(500);
    // Its own cap still answers as before, without the budget flag.
    const capped = await fetchBounded((u, i) => fetch(u, i), s.url('/big.md'), { kind: 'skill-md', origin: s.origin, clock, meter: downloadBudget(10_000), cap: 1000 });
    expect(capped).toMatchObject({ kind: 'too-large', limit: 1000 });
    expect(capped).not.toHaveProperty('budget');
  });
});
