// Storage faults during a probe: cache and byte writes that fail become a `storage-error`
// diagnostic and discovery goes on; a pin that cannot be written or read is never treated
// as absent, and a pinned origin still compares against its pin.
import { describe, expect, it } from 'vitest';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import { StoreError } from '../../../lib/store/errors';
import type { TrustStore } from '../../../lib/store/store-api';
import { DEFAULT_SETTINGS } from '../../../lib/types';
import type { TestServer } from '../../support/server';
import { serversClosedAfterEach } from '../../support/test-servers';
import { FakeClock, freshStore } from '../../support/engine-harness';
import { buildSite, keyPair } from '../../support/signed-sites';

const K1 = keyPair(31);
const startTestServer = serversClosedAfterEach();

const quota = (): StoreError => new StoreError('quota-exceeded', 'storage quota exceeded: QuotaExceededError');

/** `store` with `methods` rejecting once `arm()` was called. */
function failing(store: TrustStore, methods: (keyof TrustStore)[], error: () => unknown = quota): { store: TrustStore; arm(): void } {
  let armed = false;
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (armed && methods.includes(prop as keyof TrustStore)) return () => Promise.reject(error());
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { store: proxy, arm: () => (armed = true) };
}

async function site(): Promise<TestServer> {
  const s = await startTestServer({ files: buildSite({ skills: [{ name: 'alpha' }, { name: 'beta' }], key: K1 }) });
  return s;
}

const WRITES: (keyof TrustStore)[] = ['commitProbe', 'putCache', 'putCacheEntries', 'putSkill', 'putSkills', 'putReport', 'pinIfAbsent', 'approve', 'replacePin'];

describe('storage faults during a probe', () => {
  it('every write refused on a first visit: skills listed, storage-error reported, nothing pinned or verified', async () => {
    const s = await site();
    const base = await freshStore();
    const f = failing(base, WRITES);
    f.arm();
    const r = await probeOrigin(s.origin, { fetch: (u, i) => fetch(u, i), store: f.store, clock: new FakeClock(), settings: DEFAULT_SETTINGS });
    expect(r.state).toBe('done');
    expect(r.skills.map((k) => k.name)).toEqual(['alpha', 'beta']);
    const messages = r.diagnostics.filter((d) => d.code === 'storage-error').map((d) => d.message);
    expect(messages.some((m) => m.startsWith('Saving the probe cache failed'))).toBe(true);
    expect(messages.some((m) => m.startsWith('Saving the pinned key failed'))).toBe(true);
    expect(messages.some((m) => m.startsWith('Saving the report failed'))).toBe(true);
    expect(messages.every((m) => /quota/.test(m))).toBe(true);
    expect(r.key).toMatchObject({ state: 'none', pinned: null, unavailable: true });
    expect(r.skills.map((k) => [k.status, k.statusCode])).toEqual([
      ['fetch-failed', 'key-unavailable'],
      ['fetch-failed', 'key-unavailable'],
    ]);
    expect(await base.getPin(s.origin)).toBeNull();
    expect(await base.getReport(s.origin)).toBeNull();
  });

  it('a pinned origin under quota still compares against its pin and keeps verifying', async () => {
    const s = await site();
    const base = await freshStore();
    const f = failing(base, WRITES);
    const clock = new FakeClock();
    const deps = { fetch: (u: string, i: RequestInit) => fetch(u, i), store: f.store, clock, settings: DEFAULT_SETTINGS };
    const first = await probeOrigin(s.origin, deps);
    expect(first.key.state).toBe('pinned-now');
    const pin = await base.getPin(s.origin);
    f.arm();
    clock.advance(1000);
    const r = await probeOrigin(s.origin, deps, { force: true });
    expect(r.state).toBe('done');
    expect(r.key.state).toBe('match');
    expect(r.skills.map((k) => k.status)).toEqual(['verified-signed', 'verified-signed']);
    expect(r.diagnostics.some((d) => d.code === 'storage-error')).toBe(true);
    expect(await base.getPin(s.origin)).toEqual(pin);
  });

  it('an unreadable stored pin (read as none, write refused) is never pinned over: key unavailable', async () => {
    const s = await site();
    const base = await freshStore();
    const f = failing(base, ['pinIfAbsent', 'commitProbe'], () => new StoreError('corrupt-record', 'unreadable pins record was skipped'));
    f.arm();
    const r = await probeOrigin(s.origin, { fetch: (u, i) => fetch(u, i), store: f.store, clock: new FakeClock(), settings: DEFAULT_SETTINGS });
    expect(r.state).toBe('done');
    expect(r.key).toMatchObject({ state: 'none', pinned: null, unavailable: true });
    expect(r.diagnostics.some((d) => d.code === 'storage-error' && /unreadable pins record/.test(d.message))).toBe(true);
    expect(r.skills.every((k) => k.status === 'fetch-failed')).toBe(true);
    expect(await base.getPin(s.origin)).toBeNull();
  });
});
