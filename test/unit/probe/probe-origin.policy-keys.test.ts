// A publisher key the administrator pinned (docs/policies.md) stands in for trust on first use:
// the first probe pins nothing, the administrator's key verifies, any other key is key-changed
// naming the administrator's key, and a key pinned in the store before does not override it.
import { describe, expect, it } from 'vitest';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import { parseManaged, type ManagedKey } from '../../../lib/store/policy';
import { fingerprint } from '../../../lib/verify/fingerprint';
import type { TestServer } from '../../support/server';
import { serversClosedAfterEach } from '../../support/test-servers';
import { approveSkill, harness, type Harness } from '../../support/engine-harness';
import { buildSite, keyPair } from '../../support/signed-sites';

const ADMIN = keyPair(71);
const OTHER = keyPair(72);
const FP_ADMIN = fingerprint(ADMIN.publicKey);
const FP_OTHER = fingerprint(OTHER.publicKey);
const startTestServer = serversClosedAfterEach();

const serve = (files: Record<string, string | Uint8Array>): Promise<TestServer> => startTestServer({ files });

function managed(origin: string, b64 = ADMIN.b64): ManagedKey[] {
  return parseManaged({ pinnedKeys: { [origin]: b64 } }).pinnedKeys;
}

function probeWith(h: Harness, origin: string, keys: ManagedKey[]) {
  return probeOrigin(origin, { fetch: (u, i) => fetch(u, i), store: h.store, clock: h.clock, settings: h.settings, managedKeys: keys });
}

describe('a key the administrator pinned', () => {
  it('the site serving it: match on the first probe, verified-signed, and nothing is pinned by first use', async () => {
    const s = await serve(buildSite({ skills: [{ name: 'alpha' }], key: ADMIN }));
    const h = await harness();
    const r = await probeWith(h, s.origin, managed(s.origin));
    expect(r.key).toMatchObject({ state: 'match', pinnedBy: 'policy', pinned: { fingerprint: FP_ADMIN }, offered: { fingerprint: FP_ADMIN } });
    expect(r.skills[0]?.status).toBe('verified-signed');
    expect(r.diagnostics.map((d) => d.code)).not.toContain('key-pinned');
    expect(await h.store.getPin(s.origin)).toBeNull();
  });

  it('the site serving another key on the first probe: key-changed naming the administrator’s key, never pinned', async () => {
    const s = await serve(buildSite({ skills: [{ name: 'alpha' }, { name: 'beta', signature: 'none' }], key: OTHER }));
    const h = await harness();
    const r = await probeWith(h, s.origin, managed(s.origin));
    expect(r.key).toMatchObject({ state: 'changed', pinnedBy: 'policy', pinned: { fingerprint: FP_ADMIN, firstSeen: 0 }, offered: { fingerprint: FP_OTHER } });
    expect(r.skills.map((k) => [k.name, k.status, k.statusCode])).toEqual([
      ['alpha', 'key-changed', 'key-changed'],
      ['beta', 'key-changed', 'key-changed'],
    ]);
    expect(r.skills[0]?.statusMessage).toContain(`your administrator pinned for it (${FP_ADMIN})`);
    const d = r.diagnostics.find((x) => x.code === 'key-changed');
    expect(d?.message).toBe(`Your administrator pinned ${FP_ADMIN} for this origin; it offers ${FP_OTHER}.`);
    expect(await h.store.getPin(s.origin)).toBeNull();
  });

  it('wins over a key pinned earlier by first use; the stored pin is kept as it was', async () => {
    const s = await serve(buildSite({ skills: [{ name: 'alpha' }], key: OTHER }));
    const h = await harness();
    const first = await h.probe(s.origin);
    expect(first.key.state).toBe('pinned-now');
    const stored = await h.store.getPin(s.origin);
    const r = await probeWith(h, s.origin, managed(s.origin));
    expect(r.key).toMatchObject({ state: 'changed', pinnedBy: 'policy', pinned: { fingerprint: FP_ADMIN } });
    expect(await h.store.getPin(s.origin)).toEqual(stored);
    // Without the policy the stored pin applies again.
    expect((await h.probe(s.origin)).key).toMatchObject({ state: 'match', pinned: { fingerprint: FP_OTHER } });
  });

  it('a site that does not sign: stopped-signing against the administrator’s key, its skills key-changed', async () => {
    const s = await serve(buildSite({ skills: [{ name: 'alpha' }] }));
    const h = await harness();
    const r = await probeWith(h, s.origin, managed(s.origin));
    expect(r.key).toMatchObject({ state: 'stopped-signing', pinnedBy: 'policy', pinned: { fingerprint: FP_ADMIN } });
    expect(r.skills[0]?.status).toBe('key-changed');
    expect(r.skills[0]?.statusMessage).toContain(FP_ADMIN);
  });

  it('approvals made under the administrator’s key bind its fingerprint and stay approved', async () => {
    const s = await serve(buildSite({ skills: [{ name: 'alpha' }], key: ADMIN }));
    const h = await harness();
    const keys = managed(s.origin);
    const r = await probeWith(h, s.origin, keys);
    await approveSkill(h, r, r.skills[0] as (typeof r.skills)[number]);
    const again = await probeWith(h, s.origin, keys);
    expect(again.skills[0]?.approval).toMatchObject({ state: 'approved', approval: { keyFingerprint: FP_ADMIN } });
  });

  it('applies only to its own origin', async () => {
    const s = await serve(buildSite({ skills: [{ name: 'alpha' }], key: OTHER }));
    const h = await harness();
    const r = await probeWith(h, s.origin, managed('https://elsewhere.example'));
    expect(r.key.state).toBe('pinned-now');
    expect(r.key.pinnedBy).toBeUndefined();
  });
});
