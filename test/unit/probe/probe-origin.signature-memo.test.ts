// PRODUCT.md §2.7: a digest already verified is not verified again. The bytes remember the
// (key fingerprint, signature) they verified with; a revisit that meets the same key, signature
// and digest does no ed25519 verification; any difference verifies again, and fails when it must.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestServer } from '../../support/server';
import { serversClosedAfterEach } from '../../support/test-servers';
import { harness, skill, statuses } from '../../support/engine-harness';
import { buildSite, keyPair, skillText } from '../../support/signed-sites';

const verifyCalls = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../../lib/verify/ed25519', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../lib/verify/ed25519')>();
  return {
    ...real,
    verifySignatureB64: (...args: Parameters<typeof real.verifySignatureB64>) => {
      verifyCalls.n += 1;
      return real.verifySignatureB64(...args);
    },
  };
});

const MIN = 60_000;
const K1 = keyPair(41);
const K2 = keyPair(42);
const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const SITE = buildSite({ skills: NAMES.map((name) => ({ name })), key: K1 });

const startTestServer = serversClosedAfterEach();
beforeEach(() => {
  verifyCalls.n = 0;
});

const serve = (files: Record<string, string | Uint8Array>): Promise<TestServer> => startTestServer({ files });

/** Verifications done by `run`. */
async function counted<T>(run: () => Promise<T>): Promise<{ value: T; verified: number }> {
  const before = verifyCalls.n;
  const value = await run();
  return { value, verified: verifyCalls.n - before };
}

const allSigned = (r: { skills: { status: string }[] }): boolean => r.skills.length === 5 && r.skills.every((k) => k.status === 'verified-signed');

describe('verified signatures are remembered with the bytes', () => {
  it('first visit verifies each signature once; revisits (cache fresh, then 304) verify none', async () => {
    const s = await serve(SITE);
    const h = await harness();
    const first = await counted(() => h.probe(s.origin));
    expect(first.verified).toBe(5);
    expect(allSigned(first.value)).toBe(true);

    h.clock.advance(1 * MIN);
    const fresh = await counted(() => h.probe(s.origin));
    expect(fresh.verified).toBe(0);
    expect(allSigned(fresh.value)).toBe(true);
    expect(fresh.value.skills.map((k) => k.signature)).toEqual(first.value.skills.map((k) => k.signature));

    h.clock.advance(6 * MIN);
    const revalidated = await counted(() => h.probe(s.origin));
    expect(revalidated.value.sources.find((x) => x.kind === 'index')?.outcome).toBe('not-modified');
    expect(revalidated.verified).toBe(0);
    expect(allSigned(revalidated.value)).toBe(true);
  });

  it('a forced probe verifies again', async () => {
    const s = await serve(SITE);
    const h = await harness();
    await h.probe(s.origin);
    const forced = await counted(() => h.probe(s.origin, { force: true }));
    expect(forced.verified).toBe(5);
    expect(allSigned(forced.value)).toBe(true);
  });

  it('a swapped signature on unchanged bytes is verified again and is bad-signature; the others are not verified', async () => {
    const s = await serve(SITE);
    const h = await harness();
    await h.probe(s.origin);
    const index = JSON.parse(String(SITE['/.well-known/agent-skills/index.json'])) as { skills: { name: string; signature: string }[] };
    const alpha = index.skills.find((e) => e.name === 'alpha');
    const beta = index.skills.find((e) => e.name === 'beta');
    if (!alpha || !beta) throw new Error('site without alpha or beta');
    alpha.signature = beta.signature;
    s.options.files = { ...SITE, '/.well-known/agent-skills/index.json': JSON.stringify(index, null, 2) + '\n' };

    h.clock.advance(6 * MIN);
    const r = await counted(() => h.probe(s.origin));
    expect(r.value.sources.find((x) => x.kind === 'index')?.outcome).toBe('ok');
    expect(r.verified).toBe(1);
    expect(skill(r.value, 'alpha')).toMatchObject({ status: 'bad-signature', statusCode: 'bad-signature', fromStore: true });
    expect(statuses(r.value)).toMatchObject({ beta: 'verified-signed', gamma: 'verified-signed', delta: 'verified-signed', epsilon: 'verified-signed' });

    // Still bad on the next visit: a failed verification is never remembered.
    h.clock.advance(1 * MIN);
    const again = await counted(() => h.probe(s.origin));
    expect(again.verified).toBe(1);
    expect(skill(again.value, 'alpha').status).toBe('bad-signature');
  });

  it('a signature that no longer verifies with an unchanged digest is bad-signature (the note binds the signature text)', async () => {
    const s = await serve(SITE);
    const h = await harness();
    await h.probe(s.origin);
    const index = JSON.parse(String(SITE['/.well-known/agent-skills/index.json'])) as { skills: { name: string; signature: string }[] };
    const gamma = index.skills.find((e) => e.name === 'gamma');
    if (!gamma) throw new Error('no gamma');
    // Same signature bytes in another spelling would be refused too: flip one base64 character.
    gamma.signature = (gamma.signature[0] === 'A' ? 'B' : 'A') + gamma.signature.slice(1);
    s.options.files = { ...SITE, '/.well-known/agent-skills/index.json': JSON.stringify(index, null, 2) + '\n' };
    h.clock.advance(6 * MIN);
    const r = await counted(() => h.probe(s.origin));
    expect(r.verified).toBe(1);
    expect(skill(r.value, 'gamma').status).toBe('bad-signature');
  });

  it('a new trusted key verifies the unchanged bytes again, then remembers that key', async () => {
    const s = await serve(SITE);
    const h = await harness();
    await h.probe(s.origin);
    s.options.files = buildSite({ skills: NAMES.map((name) => ({ name })), key: K2 });

    h.clock.advance(6 * MIN);
    const changed = await counted(() => h.probe(s.origin));
    expect(changed.value.key.state).toBe('changed');
    expect(changed.verified).toBe(0);

    const pin = await h.store.getPin(s.origin);
    const offered = changed.value.key.offered;
    if (!pin || !offered) throw new Error('no pin or offered key');
    expect(await h.store.replacePin(s.origin, pin.fingerprint, offered.key, offered.fingerprint, h.clock.now())).toBe(true);

    h.clock.advance(1 * MIN);
    const trusted = await counted(() => h.probe(s.origin));
    expect(trusted.value.key.state).toBe('match');
    expect(trusted.verified).toBe(5);
    expect(allSigned(trusted.value)).toBe(true);
    const stored = await h.store.getLatestSkill(s.origin, skill(trusted.value, 'alpha').url as string);
    expect(stored?.signatureVerified?.fingerprint).toBe(offered.fingerprint);

    h.clock.advance(1 * MIN);
    const revisit = await counted(() => h.probe(s.origin));
    expect(revisit.verified).toBe(0);
    expect(allSigned(revisit.value)).toBe(true);
  });

  it('bytes stored without a note (an older build) are verified once more, then remembered', async () => {
    const s = await serve(SITE);
    const h = await harness();
    const first = await h.probe(s.origin);
    for (const k of first.skills) {
      const rec = await h.store.getLatestSkill(s.origin, k.url as string);
      if (!rec) throw new Error('nothing stored');
      const { signatureVerified: _dropped, ...older } = rec;
      await h.store.putSkill(older);
    }
    h.clock.advance(1 * MIN);
    const upgrade = await counted(() => h.probe(s.origin));
    expect(upgrade.verified).toBe(5);
    expect(allSigned(upgrade.value)).toBe(true);
    h.clock.advance(1 * MIN);
    const next = await counted(() => h.probe(s.origin));
    expect(next.verified).toBe(0);
  });

  it('changed bytes with a valid signature are verified (a new digest has no note)', async () => {
    const s = await serve(SITE);
    const h = await harness();
    await h.probe(s.origin);
    s.options.files = buildSite({ skills: NAMES.map((name) => (name === 'delta' ? { name, text: skillText(name, 'A new body.') } : { name })), key: K1 });
    h.clock.advance(6 * MIN);
    const r = await counted(() => h.probe(s.origin));
    expect(r.verified).toBe(1);
    expect(allSigned(r.value)).toBe(true);
  });

  it('bytes fetched again whole (no validators) reuse the note of the stored record with the same digest', async () => {
    const files = buildSite({ skills: [{ name: 'alpha', digest: 'none', inline: false }], key: K1 });
    const path = '/skills/alpha/SKILL.md';
    const s = await startTestServer({
      files,
      routes: [
        (_req, res, url) => {
          if (url.pathname !== path) return false;
          res.writeHead(200, { 'content-type': 'text/markdown' });
          res.end(files[path]);
          return true;
        },
      ],
    });
    const h = await harness();
    const first = await counted(() => h.probe(s.origin));
    expect(first.verified).toBe(1);
    h.clock.advance(6 * MIN);
    const again = await counted(() => h.probe(s.origin));
    expect(s.log.filter((l) => l.path === path)).toHaveLength(2);
    expect(skill(again.value, 'alpha').fromStore).toBe(false);
    expect(again.verified).toBe(0);
    expect(skill(again.value, 'alpha').status).toBe(skill(first.value, 'alpha').status);
    expect(skill(again.value, 'alpha').signature.state).toBe('valid');
  });
});
