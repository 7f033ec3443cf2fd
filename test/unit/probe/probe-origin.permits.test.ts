// A probe in Chrome takes the session-rule permits of each phase's requests together
// (RequestGuard.reserve, lib/net/dnr-rules.ts): one rule update for the listings, one for the key
// and the artifacts, instead of an addition and a removal per request, each waiting for the last.
// The whole probe runs through the real watcher and the real permits over simulated session
// rules, so a request without its permit would be blocked and the skill would not verify.
import { describe, expect, it } from 'vitest';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import { createPermits, FIRST_PERMIT_ID, type RuleChange } from '../../../lib/net/dnr-rules';
import { createRequestWatcher } from '../../../lib/net/request-guard';
import { DEFAULT_SETTINGS } from '../../../lib/types';
import { FakeClock, freshStore } from '../../support/engine-harness';
import { buildSite, keyPair } from '../../support/signed-sites';
import { EXT_BASE, EXT_ID, simBrowser, simRules, type Route } from '../net/browser-sim';

const ORIGIN = 'http://permits.localhost:8080';
const K = keyPair(62);
const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'eps'];

function routesOf(files: Record<string, string | Uint8Array>): Record<string, Route> {
  const dec = new TextDecoder();
  return Object.fromEntries(
    Object.entries(files).map(([path, body]) => [ORIGIN + path, { body: typeof body === 'string' ? body : dec.decode(body), type: path.endsWith('.json') ? 'application/json' : 'text/plain' }]),
  );
}

/** `reserve`: the guard reserves through the permits, has no reservations, or its reservations fail. */
async function setup(reserve: 'permits' | 'none' | 'fails', names: readonly string[] = NAMES) {
  const rules = simRules();
  const changes: RuleChange[] = [];
  const permits = createPermits(
    async (c) => {
      changes.push(c);
      await rules.update(c);
    },
    { extensionId: EXT_ID },
  );
  await permits.install([]);
  const watcher = createRequestWatcher({
    extensionBase: EXT_BASE,
    blocking: false,
    manualRedirects: true,
    waitMs: 200,
    prepare: (u) => permits.acquire(u),
    ...(reserve === 'none'
      ? {}
      : {
          reserve:
            reserve === 'permits'
              ? (urls: URL[]) => permits.reserve(urls)
              : async () => {
                  throw new Error('no rule update now');
                },
        }),
  });
  const files = buildSite({ skills: names.map((name) => ({ name })), key: K });
  const sim = simBrowser(routesOf(files), watcher, { chrome: { rules, addressOf: () => '127.0.0.1' } });
  const store = await freshStore();
  const clock = new FakeClock();
  const probe = () => probeOrigin(ORIGIN, { fetch: sim.fetch, guard: watcher.guard, store, clock, settings: DEFAULT_SETTINGS });
  const additions = () => changes.filter((c) => (c.addRules ?? []).some((r) => r.id >= FIRST_PERMIT_ID));
  return { rules, permits, changes, sim, probe, additions, clock };
}

const settle = (): Promise<void> => new Promise((done) => setTimeout(done, 10));

describe('permits a phase at a time', () => {
  it('a first visit of a private origin with 5 signed skills: two permit additions, every skill verified, nothing left open', async () => {
    const { rules, permits, sim, probe, additions } = await setup('permits');
    const report = await probe();
    expect(report.skills.map((s) => s.status)).toEqual(NAMES.map(() => 'verified-signed'));
    const adds = additions().map((c) => (c.addRules ?? []).map((r) => r.condition.urlFilter?.slice(1, -1).replace(ORIGIN, '')).sort());
    expect(adds).toEqual([
      ['/.well-known/agent-skills/index.json', '/.well-known/skills/index.json', '/llms.txt'],
      ['/.well-known/agent-skills/signing-key.pub', ...NAMES.map((n) => `/skills/${n}/SKILL.md`)].sort(),
    ]);
    // The legacy index was reserved with the others but not asked: the current index answered.
    expect(sim.served).not.toContain(`${ORIGIN}/.well-known/skills/index.json`);
    await settle();
    expect(permits.held()).toEqual([]);
    expect(rules.rules().every((r) => r.id < FIRST_PERMIT_ID)).toBe(true);
    expect(rules.blocks(`${ORIGIN}/llms.txt`)).toBe(true);
  });

  it('without reservations the same probe takes one addition per request (the cost the reservations remove)', async () => {
    const { probe, additions } = await setup('none');
    const report = await probe();
    expect(report.skills.map((s) => s.status)).toEqual(NAMES.map(() => 'verified-signed'));
    expect(additions().length).toBeGreaterThan(2);
  });

  it('a revisit answered from the cache takes no permit at all', async () => {
    const { probe, changes, sim, clock } = await setup('permits');
    await probe();
    await settle();
    const before = changes.length;
    const served = sim.served.length;
    clock.t += 60_000;
    const again = await probe();
    await settle();
    expect(again.skills.map((s) => s.status)).toEqual(NAMES.map(() => 'verified-signed'));
    expect(sim.served.length).toBe(served);
    expect(changes.length).toBe(before);
  });

  it('a reservation that fails costs nothing but its time: each request takes its own permit', async () => {
    const { probe, permits } = await setup('fails', ['solo']);
    const report = await probe();
    expect(report.skills.map((s) => s.status)).toEqual(['verified-signed']);
    await settle();
    expect(permits.held()).toEqual([]);
  });
});
