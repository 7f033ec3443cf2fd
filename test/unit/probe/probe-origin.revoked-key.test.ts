// A key the user revoked for an origin (PRODUCT.md §5): the probe never pins it and never verifies
// against it, pinned or not, before or after "forget"; trusting a new key carries over approvals
// whose bytes are unchanged.
import { describe, expect, it } from 'vitest';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import { StoreError } from '../../../lib/store/errors';
import type { TrustStore } from '../../../lib/store/store-api';
import { DEFAULT_SETTINGS } from '../../../lib/types';
import { fingerprint } from '../../../lib/verify/fingerprint';
import type { TestServer } from '../../support/server';
import { serversClosedAfterEach } from '../../support/test-servers';
import { approveSkill, FakeClock, freshStore, harness } from '../../support/engine-harness';
import { buildSite, keyPair, skillText } from '../../support/signed-sites';

const K1 = keyPair(41);
const K2 = keyPair(42);
const FP1 = fingerprint(K1.publicKey);
const FP2 = fingerprint(K2.publicKey);
const startTestServer = serversClosedAfterEach();

const serve = (files: Record<string, string | Uint8Array>): Promise<TestServer> => startTestServer({ files });

describe('a revoked key', () => {
  it('is not pinned on first sight: every skill is key-changed (key-revoked) and nothing is pinned', async () => {
    const s = await serve(buildSite({ skills: [{ name: 'alpha' }, { name: 'beta', signature: 'none' }], key: K1 }));
    const h = await harness();
    await h.store.revokeKey(s.origin, FP1, h.clock.now());
    const r = await h.probe(s.origin);
    expect(r.key).toMatchObject({ state: 'revoked', pinned: null, offered: { fingerprint: FP1 } });
    expect(r.skills.map((k) => [k.name, k.status, k.statusCode])).toEqual([
      ['alpha', 'key-changed', 'key-revoked'],
      ['beta', 'key-changed', 'key-revoked'],
    ]);
    expect(r.diagnostics.map((d) => d.code)).toContain('key-revoked');
    expect(await h.store.getPin(s.origin)).toBeNull();
  });

  it('revoking the pinned key blocks its skills and suspends their approvals; forget does not bring it back', async () => {
    const s = await serve(buildSite({ skills: [{ name: 'alpha' }], key: K1 }));
    const h = await harness();
    const first = await h.probe(s.origin);
    expect(first.skills[0]?.status).toBe('verified-signed');
    await approveSkill(h, first, first.skills[0] as (typeof first.skills)[number]);

    await h.store.revokeKey(s.origin, FP1, h.clock.now());
    const revoked = await h.probe(s.origin, { force: true });
    expect(revoked.key.state).toBe('revoked');
    expect(revoked.skills[0]).toMatchObject({ status: 'key-changed', statusCode: 'key-revoked', approval: { state: 'suspended' } });

    await h.store.forgetPin(s.origin);
    const forgotten = await h.probe(s.origin, { force: true });
    expect(forgotten.key).toMatchObject({ state: 'revoked', pinned: null });
    expect(forgotten.skills[0]?.statusCode).toBe('key-revoked');
    expect(await h.store.getPin(s.origin)).toBeNull();
  });

  it('with the pin of a revoked key kept, a new key is a change the user decides about, never a silent pin', async () => {
    const s = await serve(buildSite({ skills: [{ name: 'alpha' }], key: K1 }));
    const h = await harness();
    await h.probe(s.origin);
    await h.store.revokeKey(s.origin, FP1, h.clock.now());
    s.options.files = buildSite({ skills: [{ name: 'alpha' }], key: K2 });
    const r = await h.probe(s.origin, { force: true });
    expect(r.key).toMatchObject({ state: 'changed', pinned: { fingerprint: FP1 }, offered: { fingerprint: FP2 } });
  });

  it('when the one write of the probe fails, a revoked key is still refused', async () => {
    const s = await serve(buildSite({ skills: [{ name: 'alpha' }], key: K1 }));
    const base = await freshStore();
    const clock = new FakeClock();
    await probeOrigin(s.origin, { fetch: (u, i) => fetch(u, i), store: base, clock, settings: DEFAULT_SETTINGS });
    await base.revokeKey(s.origin, FP1, clock.now());
    const store = new Proxy(base, {
      get(target, prop, receiver) {
        if (prop === 'commitProbe') return () => Promise.reject(new StoreError('quota-exceeded', 'storage quota exceeded'));
        const value = Reflect.get(target, prop, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }) as TrustStore;
    const r = await probeOrigin(s.origin, { fetch: (u, i) => fetch(u, i), store, clock, settings: DEFAULT_SETTINGS }, { force: true });
    expect(r.key.state).toBe('revoked');
    expect(r.skills[0]?.status).toBe('key-changed');
  });
});

describe('trusting a new key', () => {
  it('keeps the approvals of unchanged skills (one decision) and leaves changed ones to decide', async () => {
    const s = await serve(buildSite({ skills: [{ name: 'alpha' }, { name: 'beta' }], key: K1 }));
    const h = await harness();
    const first = await h.probe(s.origin);
    for (const k of first.skills) await approveSkill(h, first, k);
    s.options.files = buildSite({ skills: [{ name: 'alpha' }, { name: 'beta', text: skillText('beta', 'Changed while the key changed.') }], key: K2 });
    const changed = await h.probe(s.origin, { force: true });
    expect(changed.skills.map((k) => k.status)).toEqual(['key-changed', 'key-changed']);

    const carry = changed.skills.map((k) => ({ url: k.url as string, digestLf: k.actual?.lf as string }));
    expect(await h.store.replacePin(s.origin, FP1, K2.b64, FP2, h.clock.now(), carry)).toBe(true);
    const after = await h.probe(s.origin, { force: true });
    expect(after.skills.map((k) => [k.name, k.status, k.approval.state])).toEqual([
      ['alpha', 'verified-signed', 'approved'],
      ['beta', 'verified-signed', 'none'],
    ]);
    expect(after.skills[0]?.approval.approval?.keyFingerprint).toBe(FP2);
  });
});
