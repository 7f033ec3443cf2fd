// Chrome's session rules (lib/net/dnr-rules.ts) block exactly what the host classification calls
// non-public, in the canonical URL form Chrome matches, and permits open one origin at a time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { blockPatterns, blockRules, createPermits, FIRST_PERMIT_ID, needsPermit, type RuleChange } from '../../../lib/net/dnr-rules';
import { classifyHost } from '../../../lib/net/url-safety';

const NON_PUBLIC = [
  '127.0.0.1', '127.1.2.3', '0.0.0.0', '10.0.0.5', '172.16.0.1', '172.31.255.1', '192.168.1.1', '100.64.0.1', '100.127.1.1',
  '169.254.169.254', '224.0.0.251', '239.1.1.1', '255.255.255.255', '198.18.0.1', '198.19.4.4', '192.0.0.8', '192.0.2.1',
  '192.88.99.1', '198.51.100.7', '203.0.113.9', '2130706433', '0x7f.0.0.1', '0177.0.0.1',
  '[::1]', '[::ffff:127.0.0.1]', '[fd12:3456::1]', '[fe80::1]', '[64:ff9b::7f00:1]', '[2002:c0a8:101::1]', '[ff02::1]',
  'localhost', 'LOCALHOST', 'api.localhost', 'localhost.', 'router', 'nas.', 'printer.local', 'db.internal', 'tv.home.arpa',
  'box.lan', 'host.localdomain', 'app.localtest.me', 'lvh.me', '127.0.0.1.nip.io', '10.0.0.1.sslip.io', 'x.traefik.me',
];
const PUBLIC = ['example.com', 'pub.skillpin.test', 'www.example.co.uk', '8.8.8.8', '172.32.0.1', '100.128.0.1', '192.169.1.1', '11.0.0.1', 'localhost.example.com', 'internal.example.com', 'nip.io.example.com'];

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

  it('the rules apply only to requests outside tabs (the extension\'s own), ids below the permits', () => {
    for (const r of blockRules()) {
      expect(r.condition.tabIds).toEqual([-1]);
      expect(r.action.type).toBe('block');
      expect(r.id).toBeLessThan(FIRST_PERMIT_ID);
    }
  });
});

describe('permits', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(fail = false): { changes: RuleChange[]; permits: ReturnType<typeof createPermits> } {
    const changes: RuleChange[] = [];
    const permits = createPermits(async (c) => {
      if (fail) throw new Error('no');
      changes.push(c);
    }, { lingerMs: 1000 });
    return { changes, permits };
  }

  it('one allow rule per origin, shared, kept a moment after the last release, then removed', async () => {
    const { changes, permits } = setup();
    const a = await permits.acquire(new URL('http://127.0.0.1:8080/llms.txt'));
    const b = await permits.acquire(new URL('http://127.0.0.1:8080/index.json'));
    expect(changes).toHaveLength(1);
    expect(changes[0]?.addRules?.[0]).toMatchObject({ id: FIRST_PERMIT_ID, priority: 2, action: { type: 'allow' }, condition: { urlFilter: '|http://127.0.0.1:8080/', tabIds: [-1] } });
    a();
    b();
    await vi.advanceTimersByTimeAsync(500);
    const c = await permits.acquire(new URL('http://127.0.0.1:8080/x'));
    expect(changes).toHaveLength(1);
    c();
    await vi.advanceTimersByTimeAsync(1500);
    expect(changes[1]).toEqual({ removeRuleIds: [FIRST_PERMIT_ID] });
  });

  it('no rule for a public URL; other origins get their own ids', async () => {
    const { changes, permits } = setup();
    (await permits.acquire(new URL('https://example.com/x')))();
    expect(changes).toHaveLength(0);
    await permits.acquire(new URL('http://127.0.0.1:1/x'));
    await permits.acquire(new URL('http://10.0.0.1/x'));
    expect(changes.map((c) => c.addRules?.[0]?.id)).toEqual([FIRST_PERMIT_ID, FIRST_PERMIT_ID + 1]);
  });

  it('a permit that cannot be added is an error (the request is not made)', async () => {
    const { permits } = setup(true);
    await expect(permits.acquire(new URL('http://127.0.0.1:1/x'))).rejects.toThrow();
  });

  it('install replaces a previous worker\'s rules with the block rules', async () => {
    const { changes, permits } = setup();
    await permits.install([1, 2, 1000, 1003]);
    expect(changes[0]?.removeRuleIds).toEqual([1, 2, 1000, 1003]);
    expect(changes[0]?.addRules).toEqual(blockRules());
  });
});
