// How many IndexedDB transactions one probe opens (a count, not a timing): the origin's
// records are read once and everything the probe learned (pin, verified bytes, cache entries,
// report) is written in one readwrite transaction, so the count does not grow with the skills.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import { DEFAULT_SETTINGS, type OriginReport } from '../../../lib/types';
import { serversClosedAfterEach } from '../../support/test-servers';
import { openTestStore } from '../../support/trust-store';
import { FakeClock } from '../../support/engine-harness';
import { buildSite, keyPair } from '../../support/signed-sites';

const MIN = 60_000;
const K = keyPair(51);
const startTestServer = serversClosedAfterEach();

interface Counts {
  readonly: number;
  readwrite: number;
}

/** Transactions opened per database name, counted at IDBDatabase.transaction. */
const counted = new Map<string, Counts>();
type TransactionFn = (this: IDBDatabase, ...args: unknown[]) => IDBTransaction;
const proto = IDBDatabase.prototype as unknown as { transaction: TransactionFn };
const realTransaction = proto.transaction;

beforeEach(() => {
  vi.spyOn(proto, 'transaction').mockImplementation(function (this: IDBDatabase, ...args: unknown[]) {
    const counts = counted.get(this.name);
    if (counts) {
      if (args[1] === 'readwrite') counts.readwrite += 1;
      else counts.readonly += 1;
    }
    return realTransaction.apply(this, args);
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  counted.clear();
});

async function setup(skills: number): Promise<{ probe(force?: boolean): Promise<{ report: OriginReport; tx: Counts }>; clock: FakeClock }> {
  const s = await startTestServer({ files: buildSite({ skills: Array.from({ length: skills }, (_, i) => ({ name: `skill-${i}` })), key: K }) });
  const { store, name } = await openTestStore();
  const counts: Counts = { readonly: 0, readwrite: 0 };
  counted.set(name, counts);
  const clock = new FakeClock();
  return {
    clock,
    async probe(force = false) {
      counts.readonly = 0;
      counts.readwrite = 0;
      const report = await probeOrigin(s.origin, { fetch: (u, i) => fetch(u, i), store, clock, settings: DEFAULT_SETTINGS }, { force });
      return { report, tx: { ...counts } };
    },
  };
}

describe('IndexedDB transactions per probe', () => {
  it('a 50-skill signed site: one read and one write on every visit', async () => {
    const site = await setup(50);
    const first = await site.probe();
    expect(first.report.skills.filter((k) => k.status === 'verified-signed')).toHaveLength(50);
    // Reads: the origin's state (1). Writes: pin, verified bytes, cache entries and report together (1).
    expect(first.tx, JSON.stringify(first.tx)).toEqual({ readonly: 1, readwrite: 1 });

    site.clock.advance(1 * MIN);
    const fresh = await site.probe();
    expect(fresh.report.skills.filter((k) => k.status === 'verified-signed')).toHaveLength(50);
    // The state read; the pin's lastSeen with the report. No skill is written or verified again.
    expect(fresh.tx, JSON.stringify(fresh.tx)).toEqual({ readonly: 1, readwrite: 1 });

    site.clock.advance(6 * MIN);
    const revalidated = await site.probe();
    expect(revalidated.report.sources.find((x) => x.kind === 'index')?.outcome).toBe('not-modified');
    expect(revalidated.report.skills.filter((k) => k.status === 'verified-signed')).toHaveLength(50);
    expect(revalidated.tx, JSON.stringify(revalidated.tx)).toEqual({ readonly: 1, readwrite: 1 });

    const forced = await site.probe(true);
    expect(forced.tx, JSON.stringify(forced.tx)).toEqual({ readonly: 1, readwrite: 1 });
  });

  it('the count for 5 skills equals the count for 50', async () => {
    const small = await setup(5);
    const large = await setup(50);
    const a = await small.probe();
    const b = await large.probe();
    expect(a.tx).toEqual(b.tx);
  });
});
