// Chrome's session rules (lib/net/dnr-rules.ts) block exactly what the host classification calls
// non-public, in the canonical URL form Chrome matches, only for the extension's own requests, and
// permits open exactly one URL while its request runs.
import { describe, expect, it } from 'vitest';
import { blockPatterns, blockRules, createPermits, FIRST_PERMIT_ID, needsPermit, permitRule, type RuleChange } from '../../../lib/net/dnr-rules';
import { classifyHost } from '../../../lib/net/url-safety';
import { EXT_ID, simRules } from './browser-sim';

const NON_PUBLIC = [
  '127.0.0.1',
  '127.1.2.3',
  '0.0.0.0',
  '10.0.0.5',
  '172.16.0.1',
  '172.31.255.1',
  '192.168.1.1',
  '100.64.0.1',
  '100.127.1.1',
  '169.254.169.254',
  '224.0.0.251',
  '239.1.1.1',
  '255.255.255.255',
  '198.18.0.1',
  '198.19.4.4',
  '192.0.0.8',
  '192.0.2.1',
  '192.88.99.1',
  '198.51.100.7',
  '203.0.113.9',
  '2130706433',
  '0x7f.0.0.1',
  '0177.0.0.1',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[fd12:3456::1]',
  '[fe80::1]',
  '[64:ff9b::7f00:1]',
  '[2002:c0a8:101::1]',
  '[ff02::1]',
  'localhost',
  'LOCALHOST',
  'api.localhost',
  'localhost.',
  'router',
  'nas.',
  'printer.local',
  'db.internal',
  'tv.home.arpa',
  'box.lan',
  'host.localdomain',
  'app.localtest.me',
  'lvh.me',
  '127.0.0.1.nip.io',
  '10.0.0.1.sslip.io',
  'x.traefik.me',
];
const PUBLIC = [
  'example.com',
  'pub.skillpin.test',
  'www.example.co.uk',
  '8.8.8.8',
  '172.32.0.1',
  '100.128.0.1',
  '192.169.1.1',
  '11.0.0.1',
  'localhost.example.com',
  'internal.example.com',
  'nip.io.example.com',
];

const matches = (url: string): boolean => blockPatterns().some((p) => new RegExp(p, 'i').test(url));

describe('block rules', () => {
  it.each(NON_PUBLIC)('block %s (classified non-public) in every scheme and port spelling', (host) => {
    for (const spelled of [`http://${host}/x`, `https://${host}:8443/SKILL.md`, `http://${host}`, `http://${host}?q`]) {
      const canonical = new URL(spelled).href;
      expect(classifyHost(new URL(spelled).hostname), canonical).not.toBe('public');
      expect(matches(canonical), canonical).toBe(true);
      expect(needsPermit(new URL(canonical)), canonical).toBe(true);
    }
  });

  it.each(PUBLIC)('leave %s (public) alone', (host) => {
    const url = new URL(`https://${host}/.well-known/agent-skills/index.json`);
    expect(classifyHost(url.hostname)).toBe('public');
    expect(matches(url.href)).toBe(false);
    expect(needsPermit(url)).toBe(false);
  });

  it('a public IPv6 literal is blocked too, so a probe that may use it takes a permit', () => {
    const url = new URL('https://[2606:4700::1111]/SKILL.md');
    expect(classifyHost(url.hostname)).toBe('public');
    expect(matches(url.href)).toBe(true);
    expect(needsPermit(url)).toBe(true);
  });

  it("the rules match only the extension's own requests outside tabs, ids below the permits", () => {
    for (const r of blockRules(EXT_ID)) {
      expect(r.condition.tabIds).toEqual([-1]);
      expect(r.condition.initiatorDomains).toEqual([EXT_ID]);
      expect(r.action.type).toBe('block');
      expect(r.id).toBeLessThan(FIRST_PERMIT_ID);
    }
  });

  it("a page's service worker or shared worker (another initiator, also outside tabs) is not blocked", async () => {
    const rules = simRules();
    await createPermits((c) => rules.update(c), { extensionId: EXT_ID }).install([]);
    for (const [url, page] of [
      ['http://localhost:3000/sw.js', 'localhost'],
      ['http://127.0.0.1:8080/api', '127.0.0.1'],
      ['http://wiki.corp.internal/x', 'wiki.corp.internal'],
      ['http://intranet/x', 'intranet'],
    ]) {
      expect(rules.blocks(url as string), url).toBe(true);
      expect(rules.blocks(url as string, page), url).toBe(false);
    }
  });
});

describe('permit rules', () => {
  it("allow exactly one URL, case-sensitively, for the extension's own requests, above the block rules", () => {
    const rule = permitRule(FIRST_PERMIT_ID, 'http://127.0.0.1:8080/skills/a/SKILL.md?v=1', EXT_ID);
    expect(rule).toEqual({
      id: FIRST_PERMIT_ID,
      priority: 2,
      action: { type: 'allow' },
      condition: { urlFilter: '|http://127.0.0.1:8080/skills/a/SKILL.md?v=1|', isUrlFilterCaseSensitive: true, tabIds: [-1], initiatorDomains: [EXT_ID] },
    });
  });

  it('a URL with a urlFilter special character gets an exact regular expression instead', () => {
    const href = 'http://127.0.0.1:8080/a*b^c|d';
    const rule = permitRule(FIRST_PERMIT_ID, href, EXT_ID);
    expect(rule.condition.urlFilter).toBeUndefined();
    const re = new RegExp(rule.condition.regexFilter ?? '');
    expect(re.test(href)).toBe(true);
    expect(re.test('http://127.0.0.1:8080/aXXb^c|d')).toBe(false);
    expect(re.test(`${href}/more`)).toBe(false);
  });
});

describe('permits', () => {
  function setup(opts: { failAdd?: () => boolean; failRemove?: () => boolean } = {}) {
    const changes: RuleChange[] = [];
    const rules = simRules(opts);
    const permits = createPermits(
      async (c) => {
        changes.push(c);
        await rules.update(c);
      },
      { extensionId: EXT_ID },
    );
    return { changes, rules, permits, ready: permits.install([]) };
  }
  const settle = (): Promise<void> => new Promise((done) => setTimeout(done, 0));
  const URL_A = 'http://127.0.0.1:8080/llms.txt';
  const URL_B = 'http://127.0.0.1:8080/.well-known/agent-skills/index.json';

  it('lets through exactly the URL asked for, only until its release', async () => {
    const { rules, permits, ready } = setup();
    await ready;
    expect(rules.blocks(URL_A)).toBe(true);
    const release = await permits.acquire(new URL(`${URL_A}#frag`));
    expect(rules.blocks(URL_A)).toBe(false);
    // Not the rest of the origin, not a longer URL, not another letter case.
    expect(rules.blocks(URL_B)).toBe(true);
    expect(rules.blocks(`${URL_A}?x`)).toBe(true);
    expect(rules.blocks('http://127.0.0.1:8080/LLMS.txt')).toBe(true);
    release();
    await settle();
    expect(rules.blocks(URL_A)).toBe(true);
    expect(permits.held()).toEqual([]);
    expect(rules.rules().every((r) => r.id < FIRST_PERMIT_ID)).toBe(true);
  });

  it('concurrent requests for one URL share one rule, which goes with the last release; a release counts once', async () => {
    const { changes, rules, permits, ready } = setup();
    await ready;
    const [a, b] = await Promise.all([permits.acquire(new URL(URL_A)), permits.acquire(new URL(URL_A))]);
    expect(changes.filter((c) => c.addRules?.some((r) => r.id >= FIRST_PERMIT_ID))).toHaveLength(1);
    a();
    a();
    await settle();
    expect(rules.blocks(URL_A)).toBe(false);
    b();
    await settle();
    expect(rules.blocks(URL_A)).toBe(true);
    // Acquired again right after: a new rule, added after the old one's removal.
    const c = await permits.acquire(new URL(URL_A));
    expect(rules.blocks(URL_A)).toBe(false);
    c();
    await settle();
    expect(rules.blocks(URL_A)).toBe(true);
  });

  it('other URLs get their own rules; no rule for a public URL', async () => {
    const { changes, permits, ready } = setup();
    await ready;
    (await permits.acquire(new URL('https://example.com/x')))();
    expect(changes).toHaveLength(1);
    await permits.acquire(new URL(URL_A));
    await permits.acquire(new URL(URL_B));
    expect(changes.slice(1).map((c) => c.addRules?.[0]?.id)).toEqual([FIRST_PERMIT_ID, FIRST_PERMIT_ID + 1]);
  });

  it('a permit that cannot be added is an error (the request is not made), and the next request tries again', async () => {
    let fail = true;
    const { rules, permits, ready } = setup({ failAdd: () => fail });
    fail = false;
    await ready;
    fail = true;
    await expect(Promise.all([permits.acquire(new URL(URL_A)), permits.acquire(new URL(URL_A))])).rejects.toThrow();
    await settle();
    expect(permits.held()).toEqual([]);
    fail = false;
    const release = await permits.acquire(new URL(URL_A));
    expect(rules.blocks(URL_A)).toBe(false);
    release();
  });

  it('a permit that cannot be removed keeps its id out of reuse; install at the next start clears it', async () => {
    let fail = false;
    const { rules, permits, ready } = setup({ failRemove: () => fail });
    await ready;
    const a = await permits.acquire(new URL(URL_A));
    fail = true;
    a();
    await settle();
    fail = false;
    const b = await permits.acquire(new URL(URL_B));
    const ids = rules
      .rules()
      .filter((r) => r.id >= FIRST_PERMIT_ID)
      .map((r) => r.id);
    expect(ids).toEqual([FIRST_PERMIT_ID, FIRST_PERMIT_ID + 1]);
    b();
    await settle();
    await permits.install(rules.rules().map((r) => r.id));
    expect(rules.rules()).toEqual(blockRules(EXT_ID));
  });

  it("install replaces a previous worker's rules with the block rules", async () => {
    const { changes, rules, permits, ready } = setup();
    await ready;
    await permits.acquire(new URL(URL_A));
    const existing = rules.rules().map((r) => r.id);
    await permits.install(existing);
    expect(changes.at(-1)?.removeRuleIds).toEqual(existing);
    expect(rules.rules()).toEqual(blockRules(EXT_ID));
  });
  it('the changes that arrive while one update is in flight go out together as the next update', async () => {
    const { changes, rules, permits, ready } = setup();
    await ready;
    const urls = [URL_A, URL_B, 'http://127.0.0.1:8080/.well-known/skills/index.json', 'http://127.0.0.1:8080/a/SKILL.md'];
    const releases = await Promise.all(urls.map((u) => permits.acquire(new URL(u))));
    // install, then one update for the four permits asked for in the same task.
    expect(changes).toHaveLength(2);
    expect(changes[1]?.addRules?.map((r) => r.id)).toEqual([0, 1, 2, 3].map((i) => FIRST_PERMIT_ID + i));
    for (const u of urls) expect(rules.blocks(u)).toBe(false);
    for (const r of releases) r();
    await settle();
    expect(changes).toHaveLength(3);
    expect(changes[2]?.removeRuleIds).toHaveLength(4);
    for (const u of urls) expect(rules.blocks(u)).toBe(true);
    expect(rules.rules().every((r) => r.id < FIRST_PERMIT_ID)).toBe(true);
  });

  it('a removal never joins a waiting group that adds its id, so it is not undone by that addition', async () => {
    const changes: RuleChange[] = [];
    const rules = simRules();
    let hold: (() => void) | null = null;
    const permits = createPermits(
      async (c) => {
        changes.push(c);
        if (hold === null && c.addRules?.some((r) => r.id >= FIRST_PERMIT_ID)) await new Promise<void>((go) => (hold = go));
        await rules.update(c);
      },
      { extensionId: EXT_ID },
    );
    await permits.install([]);
    // A's addition is in flight (held); B's addition waits; A released then waits too.
    const a = permits.acquire(new URL(URL_A));
    await settle();
    const b = permits.acquire(new URL(URL_B));
    (hold as unknown as () => void)();
    (await a)();
    (await b)();
    await settle();
    await settle();
    expect(rules.blocks(URL_A)).toBe(true);
    expect(rules.blocks(URL_B)).toBe(true);
    expect(rules.rules().every((r) => r.id < FIRST_PERMIT_ID)).toBe(true);
  });

  it('a group the browser refuses is applied again one change at a time: only the bad change fails', async () => {
    const rules = simRules();
    const bad = 'http://127.0.0.1:8080/bad';
    const changes: RuleChange[] = [];
    const permits = createPermits(
      async (c) => {
        changes.push(c);
        if (c.addRules?.some((r) => r.condition.urlFilter?.includes('/bad'))) throw new Error('refused');
        await rules.update(c);
      },
      { extensionId: EXT_ID },
    );
    await permits.install([]);
    const results = await Promise.allSettled([URL_A, bad, URL_B].map((u) => permits.acquire(new URL(u))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(rules.blocks(URL_A)).toBe(false);
    expect(rules.blocks(URL_B)).toBe(false);
    expect(rules.blocks(bad)).toBe(true);
    // The group, each of its three changes alone, then the refused permit's id given up.
    expect(changes.slice(1).map((c) => c.addRules?.length ?? 0)).toEqual([3, 1, 1, 1, 0]);
    for (const r of results) if (r.status === 'fulfilled') r.value();
    await settle();
    expect(permits.held()).toEqual([]);
  });
  it('a reservation takes several permits in one update; a request takes one over, and its release gives it up', async () => {
    const { changes, rules, permits, ready } = setup();
    await ready;
    const URL_C = 'http://127.0.0.1:8080/c/SKILL.md';
    const done = await permits.reserve([new URL(URL_A), new URL(URL_B), new URL(URL_C), new URL('https://example.com/public')]);
    expect(changes).toHaveLength(2);
    expect(changes[1]?.addRules).toHaveLength(3);
    for (const u of [URL_A, URL_B, URL_C]) expect(rules.blocks(u)).toBe(false);
    // The request for A takes A's reservation over: no update, and A goes with the request.
    const a = await permits.acquire(new URL(URL_A));
    expect(changes).toHaveLength(2);
    a();
    await settle();
    expect(rules.blocks(URL_A)).toBe(true);
    expect(rules.blocks(URL_B)).toBe(false);
    // A second request for A, after: a rule of its own again.
    const again = await permits.acquire(new URL(URL_A));
    expect(rules.blocks(URL_A)).toBe(false);
    again();
    // The reservation's release gives up B and C, which no request took.
    done();
    done();
    await settle();
    for (const u of [URL_A, URL_B, URL_C]) expect(rules.blocks(u)).toBe(true);
    expect(permits.held()).toEqual([]);
    expect(rules.rules().every((r) => r.id < FIRST_PERMIT_ID)).toBe(true);
  });

  it('a request that comes while its reservation is being added waits for that rule; a request held past the release keeps it', async () => {
    const { changes, rules, permits, ready } = setup();
    await ready;
    const reserving = permits.reserve([new URL(URL_A), new URL(URL_B)]);
    const a = await permits.acquire(new URL(URL_A));
    const done = await reserving;
    expect(changes).toHaveLength(2);
    done();
    await settle();
    // B went with the reservation; A stays while its request runs.
    expect(rules.blocks(URL_B)).toBe(true);
    expect(rules.blocks(URL_A)).toBe(false);
    a();
    await settle();
    expect(rules.blocks(URL_A)).toBe(true);
    expect(permits.held()).toEqual([]);
  });

  it('a reservation the browser refuses ends quietly; each request then takes its own permit', async () => {
    let fail = false;
    const { rules, permits, ready } = setup({ failAdd: () => fail });
    await ready;
    fail = true;
    const done = await permits.reserve([new URL(URL_A), new URL(URL_B)]);
    await settle();
    expect(permits.held()).toEqual([]);
    fail = false;
    const a = await permits.acquire(new URL(URL_A));
    expect(rules.blocks(URL_A)).toBe(false);
    done();
    a();
    await settle();
    expect(rules.blocks(URL_A)).toBe(true);
    expect(permits.held()).toEqual([]);
  });
  it('with a removal delay, removals wait for the next addition and go in its update; alone, they go after the delay', async () => {
    const changes: RuleChange[] = [];
    const rules = simRules();
    const permits = createPermits(
      async (c) => {
        changes.push(c);
        await rules.update(c);
      },
      { extensionId: EXT_ID, removalDelayMs: 40 },
    );
    await permits.install([]);
    const a = await permits.acquire(new URL(URL_A));
    expect(changes).toHaveLength(2);
    a();
    await settle();
    // Not removed yet: it waits for company.
    expect(rules.blocks(URL_A)).toBe(false);
    const b = await permits.acquire(new URL(URL_B));
    // A's removal and B's addition went as one update, at once.
    expect(changes).toHaveLength(3);
    expect(changes[2]?.removeRuleIds).toContain(FIRST_PERMIT_ID);
    expect(changes[2]?.addRules?.map((r) => r.id)).toEqual([FIRST_PERMIT_ID + 1]);
    expect(rules.blocks(URL_A)).toBe(true);
    b();
    await new Promise((done) => setTimeout(done, 80));
    expect(changes).toHaveLength(4);
    expect(rules.blocks(URL_B)).toBe(true);
    expect(permits.held()).toEqual([]);
  });
});
