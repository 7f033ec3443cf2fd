// A probe's one commit (lib/probe/probe-origin.ts, commit.ts, TrustStore.commitProbe): the verdict is
// told before the write (onVerdict); a commit the database refuses writes nothing and keeps every
// record stored before, and the probe still answers with what it found; a pin that another probe
// wrote while this one ran is not written over, and the report is decided again against it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import type { TrustStore } from '../../../lib/store/store-api';
import { DEFAULT_SETTINGS, type FetchLike, type OriginReport } from '../../../lib/types';
import { serversClosedAfterEach } from '../../support/test-servers';
import { openTestStore } from '../../support/trust-store';
import { FakeClock } from '../../support/engine-harness';
import { buildSite, keyPair } from '../../support/signed-sites';
import { fingerprint } from '../../../lib/verify/fingerprint';

const K1 = keyPair(61);
const K2 = keyPair(62);
const startTestServer = serversClosedAfterEach();

afterEach(() => {
  vi.restoreAllMocks();
});

function deps(store: TrustStore, clock: FakeClock, f: FetchLike = (u, i) => fetch(u, i)): Parameters<typeof probeOrigin>[1] {
  return { fetch: f, store, clock, settings: DEFAULT_SETTINGS };
}

const site = () => startTestServer({ files: buildSite({ skills: [{ name: 'alpha' }, { name: 'beta' }], key: K1 }) });

describe('the commit of a probe', () => {
  it('a commit the database refuses writes nothing and keeps what the last probe stored', async () => {
    const s = await site();
    const { store } = await openTestStore();
    const clock = new FakeClock();
    const first = await probeOrigin(s.origin, deps(store, clock));
    expect(first.key.state).toBe('pinned-now');
    const before = { pin: await store.getPin(s.origin), report: await store.getReport(s.origin), keys: await store.getKeyHistory(s.origin) };
    const cacheBefore = await store.getCache(`${s.origin}/llms.txt`);

    // Every put of the next commit is refused by the database, whatever store it is for.
    const storeProto = IDBObjectStore.prototype as unknown as { put: (this: IDBObjectStore, ...a: unknown[]) => IDBRequest };
    vi.spyOn(storeProto, 'put').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    clock.advance(60 * 60 * 1000);
    const verdicts: OriginReport[] = [];
    const r = await probeOrigin(s.origin, deps(store, clock), { force: true, onVerdict: (v) => verdicts.push(v) });
    vi.restoreAllMocks();

    expect(r.state).toBe('done');
    expect(r.key.state).toBe('match');
    expect(r.skills.map((k) => k.status)).toEqual(['verified-signed', 'verified-signed']);
    const messages = r.diagnostics.filter((d) => d.code === 'storage-error').map((d) => d.message);
    expect(messages.some((m) => m.startsWith('Saving the report failed'))).toBe(true);
    expect(messages.some((m) => m.startsWith('Saving the probe cache failed'))).toBe(true);
    // The verdict was told before the write.
    expect(verdicts[0]?.skills.map((k) => k.status)).toEqual(['verified-signed', 'verified-signed']);
    // Nothing of the failed commit, nothing lost: the stored pin (lastSeen too), key history, report and cache are the last probe's.
    expect(await store.getPin(s.origin)).toEqual(before.pin);
    expect(await store.getKeyHistory(s.origin)).toEqual(before.keys);
    expect(await store.getReport(s.origin)).toEqual(before.report);
    expect(await store.getCache(`${s.origin}/llms.txt`)).toEqual(cacheBefore);
  });

  it('a first pin the database refuses pins nothing: the verdict is told again without it', async () => {
    const s = await site();
    const { store } = await openTestStore();
    const storeProto = IDBObjectStore.prototype as unknown as { put: (this: IDBObjectStore, ...a: unknown[]) => IDBRequest };
    const realPut = storeProto.put;
    vi.spyOn(storeProto, 'put').mockImplementation(function (this: IDBObjectStore, ...a: unknown[]) {
      if (this.name === 'pins') throw new DOMException('quota', 'QuotaExceededError');
      return realPut.apply(this, a);
    });
    const verdicts: OriginReport[] = [];
    const r = await probeOrigin(s.origin, deps(store, new FakeClock()), { onVerdict: (v) => verdicts.push(v) });
    vi.restoreAllMocks();
    // Told first as pinned now, then corrected: no key is pinned, so nothing is verified against one.
    expect(verdicts.map((v) => v.key.state)).toEqual(['pinned-now', 'none']);
    expect(r.key).toMatchObject({ state: 'none', pinned: null, unavailable: true });
    expect(r.skills.every((k) => k.status === 'fetch-failed')).toBe(true);
    expect(await store.getPin(s.origin)).toBeNull();
    // The report that says so is stored.
    expect((await store.getReport(s.origin))?.key.state).toBe('none');
  });

  it('a pin written by another probe meanwhile is kept, and the report is decided against it', async () => {
    const s = await site();
    const { store } = await openTestStore();
    let raced = false;
    // While this probe fetches (its state was read: no pin), another probe pins another key.
    const racing: FetchLike = async (u, i) => {
      if (!raced && u.endsWith('/SKILL.md')) {
        raced = true;
        await store.pinIfAbsent(s.origin, K2.b64, fingerprint(K2.publicKey), 1);
      }
      return fetch(u, i);
    };
    const verdicts: OriginReport[] = [];
    const r = await probeOrigin(s.origin, deps(store, new FakeClock(), racing), { onVerdict: (v) => verdicts.push(v) });
    expect(raced).toBe(true);
    expect(verdicts.map((v) => v.key.state)).toEqual(['pinned-now', 'changed']);
    expect(r.key.state).toBe('changed');
    expect(r.key.pinned?.fingerprint).toBe(fingerprint(K2.publicKey));
    expect(r.skills.every((k) => k.status !== 'verified-signed')).toBe(true);
    expect((await store.getPin(s.origin))?.fingerprint).toBe(fingerprint(K2.publicKey));
    const stored = await store.getReport(s.origin);
    expect(stored?.key.state).toBe('changed');
    // The key this probe was offered is remembered as offered, not pinned.
    expect((await store.getKeyHistory(s.origin)).find((e) => e.fingerprint === fingerprint(K1.publicKey))?.state).toBe('offered');
  });
});
