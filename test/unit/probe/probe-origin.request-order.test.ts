// Which requests of one probe wait for which answers (an order, not a timing): only what the
// formats force is asked in sequence (FORMATS.md §2.1, §5). The legacy index follows the current
// index's 404 without waiting for llms.txt; signing-key.pub, the SKILL.md files and
// attestations.json are asked together once the listings are known.
import { describe, expect, it } from 'vitest';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import { DEFAULT_SETTINGS, type FetchLike, type OriginReport, type Settings } from '../../../lib/types';
import { FakeClock, freshStore } from '../../support/engine-harness';
import { buildSite, keyPair } from '../../support/signed-sites';

const ORIGIN = 'http://order.localhost';
const K = keyPair(61);

/**
 * An in-memory site whose answers to `held` paths wait until released: the requests made while
 * they wait are what the probe asked without needing them.
 */
function heldSite(files: Record<string, string | Uint8Array>, held: string[]) {
  const asked: string[] = [];
  const gates = new Map<string, () => void>();
  const waits = new Map(held.map((p) => [p, new Promise<void>((resolve) => gates.set(p, resolve))]));
  const fetchImpl: FetchLike = async (url) => {
    const path = new URL(url).pathname;
    asked.push(path);
    await waits.get(path);
    const body = files[path];
    if (body === undefined) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    const type = path.endsWith('.json') ? 'application/json' : 'text/plain';
    return new Response(typeof body === 'string' ? body : new Uint8Array(body), { status: 200, headers: { 'content-type': type } });
  };
  return {
    fetch: fetchImpl,
    asked,
    release: (path: string): void => gates.get(path)?.(),
    /** Resolves once `path` was asked (or throws after many turns of the event loop). */
    async askedFor(path: string): Promise<void> {
      for (let i = 0; i < 2000 && !asked.includes(path); i++) await new Promise((r) => setTimeout(r, 1));
      if (!asked.includes(path)) throw new Error(`${path} was not asked; asked: ${asked.join(', ')}`);
    },
  };
}

/** Starts the probe; `done` is its report (an object, so that awaiting start does not await the probe). */
async function start(site: ReturnType<typeof heldSite>, settings: Partial<Settings> = {}): Promise<{ done: Promise<OriginReport> }> {
  const store = await freshStore();
  return { done: probeOrigin(ORIGIN, { fetch: site.fetch, store, clock: new FakeClock(), settings: { ...DEFAULT_SETTINGS, ...settings } }) };
}

describe('the requests the formats do not order are asked together', () => {
  it('a site that publishes nothing: the legacy index is asked while llms.txt has not answered', async () => {
    const site = heldSite({}, ['/llms.txt']);
    const probe = await start(site);
    await site.askedFor('/.well-known/skills/index.json');
    expect([...site.asked].sort()).toEqual(['/.well-known/agent-skills/index.json', '/.well-known/skills/index.json', '/llms.txt']);
    site.release('/llms.txt');
    const report = await probe.done;
    expect(report.publishes).toBe(false);
    // Still three requests on a first visit (PRODUCT.md §2.2).
    expect(site.asked).toHaveLength(3);
  });

  it('a signed site: the SKILL.md files are asked while signing-key.pub has not answered', async () => {
    const files = buildSite({ skills: [{ name: 'alpha' }, { name: 'beta' }], key: K });
    const site = heldSite(files, ['/.well-known/agent-skills/signing-key.pub']);
    const probe = await start(site);
    await site.askedFor('/skills/alpha/SKILL.md');
    await site.askedFor('/skills/beta/SKILL.md');
    expect(site.asked).toContain('/.well-known/agent-skills/signing-key.pub');
    site.release('/.well-known/agent-skills/signing-key.pub');
    const report = await probe.done;
    expect(report.key.state).toBe('pinned-now');
    expect(report.skills.map((s) => [s.name, s.status, s.signature.state])).toEqual([
      ['alpha', 'verified-signed', 'valid'],
      ['beta', 'verified-signed', 'valid'],
    ]);
    expect([...site.asked].sort()).toEqual(
      ['/.well-known/agent-skills/index.json', '/.well-known/agent-skills/signing-key.pub', '/llms.txt', '/skills/alpha/SKILL.md', '/skills/beta/SKILL.md'].sort(),
    );
  });

  it('a signed site whose key document fails: the skills downloaded meanwhile are not trusted', async () => {
    const files = buildSite({ skills: [{ name: 'alpha' }], key: K, signingKey: null, pub: 'not a key\n' });
    const site = heldSite(files, ['/.well-known/agent-skills/signing-key.pub']);
    const probe = await start(site);
    await site.askedFor('/skills/alpha/SKILL.md');
    site.release('/.well-known/agent-skills/signing-key.pub');
    const report = await probe.done;
    expect(report.key.state).toBe('none');
    expect(report.skills.map((s) => s.status)).toEqual(['bad-signature']);
  });

  it('attestations.json is asked while the SKILL.md files have not answered', async () => {
    const files = buildSite({ skills: [{ name: 'alpha', extra: { tool: '/tools/alpha.sh', tool_sha256: 'a'.repeat(64) } }], key: null });
    const site = heldSite(files, ['/skills/alpha/SKILL.md']);
    const reviewer = { 'org:review': { public_key: K.b64, registered_at: '2026-01-01' } };
    const probe = await start(site, { reviewers: reviewer });
    await site.askedFor('/.well-known/agent-skills/attestations.json');
    expect(site.asked).toContain('/skills/alpha/SKILL.md');
    site.release('/skills/alpha/SKILL.md');
    const report = await probe.done;
    expect(report.skills.map((s) => s.status)).toEqual(['verified']);
  });
});
