// The background service under node: real engine, real IndexedDB store (fake-indexeddb),
// a loopback publisher, and a recording platform in place of the extension APIs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { BackgroundService } from '../../../lib/background/service';
import { startServer, type TestServer } from '../../support/server';
import { servePublisherSite, type ServedSite } from '../../support/served-site';
import { writePublisherSite, DEMO_SKILLS } from '../../../scripts/lib/publisher-site.mjs';
import type { OriginReport, Settings } from '../../../lib/types';
import type { ActionResult, ContextResult } from '../../../lib/messages';
import { FakePlatform } from './fake-platform';
import { CONTENT_SCRIPT, POPUP, startService } from './service-harness';
import { copyItemId } from '../../../lib/background/menus';
import { originPattern } from '../../../lib/match-patterns';

let dir: string;

let published: ServedSite;
let server: TestServer;
let platform: FakePlatform;
let service: BackgroundService;
let now = Date.parse('2026-11-29T12:00:00Z');
const seed = (b: number) => new Uint8Array(32).fill(b);

const makeService = (): Promise<BackgroundService> => startService({ platform, name: 'bg-test', now: () => now });

beforeEach(async () => {
  published = await servePublisherSite('skillpin-bg-', { skills: DEMO_SKILLS, seed: seed(1) });
  ({ dir, server } = published);
  platform = new FakePlatform();
  platform.tabs = [{ id: 1, url: server.origin + '/', incognito: false }];
  service = await makeService();
});

afterEach(async () => {
  await published.close();
});

const ask = <T>(msg: Record<string, unknown>, sender: object = POPUP) => service.handleMessage(msg, sender) as Promise<T>;

describe('messages', () => {
  it('answers readiness and refuses malformed requests', async () => {
    expect(await ask({ type: 'skillpin:ready' })).toEqual({ ready: true, version: '0.1.0' });
    expect(await ask({ type: 'skillpin:report', origin: 'javascript:alert(1)' })).toMatchObject({ ok: false, error: 'bad-request' });
    expect(await ask({ type: 'skillpin:nope' })).toMatchObject({ ok: false, error: 'bad-request' });
    expect(await ask({ type: 'skillpin:approve', origin: server.origin, url: 'x', digestLf: 'zz', confirmUnverified: false, confirmCrossOrigin: false })).toMatchObject({ error: 'bad-request' });
  });

  it('refuses every privileged request from a content script or a foreign extension', async () => {
    const report = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    const skill = report.skills[0]!;
    const privileged: Record<string, unknown>[] = [
      { type: 'skillpin:approve', origin: server.origin, url: skill.url, digestLf: skill.actual!.lf, confirmUnverified: true, confirmCrossOrigin: true },
      { type: 'skillpin:trust-key', origin: server.origin, expectedFingerprint: null, newFingerprint: 'SHA256:x' },
      { type: 'skillpin:skill-text', origin: server.origin, url: skill.url },
      { type: 'skillpin:skill-context', origin: server.origin, url: skill.url },
      { type: 'skillpin:backup' },
      { type: 'skillpin:import', json: '{}' },
      { type: 'skillpin:pin-forget', origin: server.origin },
      { type: 'skillpin:settings-set', settings: { paused: true, probeInPrivate: true, allowList: [], denyList: [], allowListOnly: false, legacyIndex: true, reviewers: {}, snapshotKeys: [] } },
    ];
    for (const msg of privileged) {
      expect(await ask(msg, CONTENT_SCRIPT)).toMatchObject({ ok: false, error: 'forbidden' });
      expect(await ask(msg, { ...POPUP, id: 'other-extension' })).toMatchObject({ ok: false, error: 'forbidden' });
    }
    const pins = await ask<{ origin: string }[]>({ type: 'skillpin:pins-list' });
    expect(pins.map((p) => p.origin)).toEqual([server.origin]);
    // The options page's paged view of the same pins, cut in the background; not for content scripts.
    const page = await ask<{ items: { origin: string }[]; matching: number; total: number }>({ type: 'skillpin:pins-page', offset: 0, limit: 10, filter: '' });
    expect([page.items.map((p) => p.origin), page.matching, page.total]).toEqual([[server.origin], 1, 1]);
    expect(await ask({ type: 'skillpin:pins-page', offset: 0, limit: 10, filter: '' }, CONTENT_SCRIPT)).toMatchObject({ ok: false, error: 'forbidden' });
    const approvals = await ask<unknown[]>({ type: 'skillpin:approvals-list' });
    expect(approvals).toEqual([]);
  });
});

describe('navigation, badge and approval', () => {
  it('probes on navigation, sets the badge, approves and builds the context', async () => {
    const report = await service.onNavigation(1, server.origin + '/docs', false);
    expect(report?.skills.map((s) => s.status)).toEqual(Array(5).fill('verified-signed'));
    expect(platform.badges.get(1)?.text).toBe('5');

    const skill = report!.skills[0]!;
    const res = await ask<ActionResult>({ type: 'skillpin:approve', origin: server.origin, url: skill.url, digestLf: skill.actual!.lf, confirmUnverified: false, confirmCrossOrigin: false });
    expect(res).toEqual({ ok: true });
    const worker = await ask<ContextResult>({ type: 'skillpin:skill-context', origin: server.origin, url: skill.url });
    expect(worker.ok).toBe(true);
    if (worker.ok) {
      expect(worker.context).toContain(server.origin);
      expect(worker.context).toContain(skill.actual!.lf);
    }
    // The copy menu shows on that origin and copies the same block.
    const copyItem = platform.menus?.copyItems.find((i) => i.id === copyItemId(server.origin));
    expect(copyItem?.patterns).toEqual([originPattern(server.origin)]);
    expect(await service.onMenuClick(copyItemId(server.origin), { id: 1, url: server.origin + '/' })).toBe(true);
    expect(platform.copies).toEqual([worker.ok ? worker.context : '']);
    // Insert through the menu item of a chat page.
    const itemId = platform.menus!.insertItems[0]!.id;
    platform.show(9, 'https://chatgpt.com/c/1');
    expect(await service.onMenuClick(itemId, { id: 9, url: 'https://chatgpt.com/' })).toBe(true);
    expect(platform.inserts).toEqual([{ tabId: 9, frameId: 0, text: worker.ok ? worker.context : '', origin: 'https://chatgpt.com' }]);
  });

  it('a revisit within a minute of a finished probe reuses its report; later, or after a settings change, it probes', async () => {
    await service.onNavigation(1, server.origin + '/', false);
    const before = server.log.length;
    // The site changes, but a quick revisit makes no request and keeps the report.
    writePublisherSite(dir, { skills: DEMO_SKILLS.slice(0, 2), seed: seed(1) });
    now += 30_000;
    const quick = await service.onNavigation(1, server.origin + '/a', false);
    expect(quick?.skills).toHaveLength(5);
    expect(server.log.length).toBe(before);
    // A settings change in between ends the quiet window.
    const settings = await ask<Settings>({ type: 'skillpin:settings-get' });
    await ask({ type: 'skillpin:settings-set', settings });
    now += 1_000;
    const afterChange = await service.onNavigation(1, server.origin + '/b', false);
    expect(afterChange?.finishedAt).toBe(now);
    // Past the window the probe runs again (here it still answers from the 5-minute cache).
    now += 61_000;
    const later = await service.onNavigation(1, server.origin + '/c', false);
    expect(later?.finishedAt).toBe(now);
  });

  it("a report asked while the origin is being probed answers that probe's result, without a second probe", async () => {
    const probing = service.probe(server.origin);
    const asked = await ask<OriginReport | null>({ type: 'skillpin:report', origin: server.origin });
    const done = await probing;
    expect(asked?.state).toBe('done');
    expect(asked?.finishedAt).toBe(done?.finishedAt);
    expect(server.log.filter((r) => r.path === '/llms.txt')).toHaveLength(1);
  });

  it('refuses to approve with a stale digest and refuses refused statuses', async () => {
    const report = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    const skill = report.skills[0]!;
    const stale = await ask<ActionResult>({ type: 'skillpin:approve', origin: server.origin, url: skill.url, digestLf: '0'.repeat(64), confirmUnverified: false, confirmCrossOrigin: false });
    expect(stale).toMatchObject({ ok: false, error: 'digest-changed' });

    // Tamper a SKILL.md: digest-mismatch can never be approved.
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'skills/search-docs/SKILL.md'), 'tampered\n');
    const after = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    const bad = after.skills.find((s) => s.name === 'search-docs')!;
    expect(bad.status).toBe('digest-mismatch');
    const refused = await ask<ActionResult>({
      type: 'skillpin:approve',
      origin: server.origin,
      url: bad.url,
      digestLf: bad.actual?.lf ?? '0'.repeat(64),
      confirmUnverified: true,
      confirmCrossOrigin: true,
    });
    expect(refused).toMatchObject({ ok: false, error: 'not-approvable' });
  });

  it('asks for a confirmation before approving an unverified skill', async () => {
    writePublisherSite(dir, { skills: DEMO_SKILLS, sign: false, index: false });
    // Strip the inline sha256 so nothing declares a digest.
    const { readFileSync, writeFileSync } = await import('node:fs');
    const txt = readFileSync(join(dir, 'llms.txt'), 'utf8').replace(/ <!-- skill: .*? -->/g, '');
    writeFileSync(join(dir, 'llms.txt'), txt);
    const report = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    const skill = report.skills[0]!;
    expect(skill.status).toBe('unverified');
    const base = { type: 'skillpin:approve', origin: server.origin, url: skill.url, digestLf: skill.actual!.lf, confirmCrossOrigin: false };
    expect(await ask<ActionResult>({ ...base, confirmUnverified: false })).toMatchObject({ ok: false, error: 'needs-confirmation' });
    expect(await ask<ActionResult>({ ...base, confirmUnverified: true })).toEqual({ ok: true });
  });

  it('does not probe deny-listed origins, paused, or private windows', async () => {
    const settings = await ask<Settings>({ type: 'skillpin:settings-get' });
    await ask({ type: 'skillpin:settings-set', settings: { ...settings, denyList: ['127.0.0.1'] } });
    expect(await service.onNavigation(1, server.origin + '/', false)).toBeNull();
    await ask({ type: 'skillpin:settings-set', settings: { ...settings, paused: true } });
    expect(await service.onNavigation(1, server.origin + '/', false)).toBeNull();
    await ask({ type: 'skillpin:settings-set', settings });
    expect(await service.onNavigation(1, server.origin + '/', true)).toBeNull();
    expect(server.log.length).toBe(0);
    // The popup's re-check on an excluded origin answers a skipped report without a request.
    await ask({ type: 'skillpin:settings-set', settings: { ...settings, denyList: [server.origin] } });
    const skipped = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    expect(skipped).toMatchObject({ state: 'skipped', skippedBecause: 'deny-listed', skills: [] });
    await ask({ type: 'skillpin:settings-set', settings: { ...settings, paused: true } });
    expect(await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin })).toMatchObject({ state: 'skipped', skippedBecause: 'paused' });
    expect(server.log.length).toBe(0);
  });
});

describe('content change', () => {
  it('suspends an approval whose content changed and lets the user approve the new version', async () => {
    const report = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    const skill = report.skills.find((s) => s.name === 'api-client')!;
    await ask({ type: 'skillpin:approve', origin: server.origin, url: skill.url, digestLf: skill.actual!.lf, confirmUnverified: false, confirmCrossOrigin: false });
    const changed = DEMO_SKILLS.map((s) => (s.name === 'api-client' ? { ...s, body: 'Changed body.\n' } : s));
    writePublisherSite(dir, { skills: changed, seed: seed(1) });
    const after = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    const now = after.skills.find((s) => s.url === skill.url)!;
    expect(now.status).toBe('content-changed');
    expect(platform.notifications).toHaveLength(1);
    const text = await ask<{ current: { text: string } | null; approved: { text: string } | null }>({ type: 'skillpin:skill-text', origin: server.origin, url: skill.url });
    expect(text.current?.text).toContain('Changed body.');
    expect(text.approved?.text).not.toContain('Changed body.');
    expect((await ask<ContextResult>({ type: 'skillpin:skill-context', origin: server.origin, url: skill.url })).ok).toBe(false);

    const res = await ask<ActionResult>({ type: 'skillpin:approve', origin: server.origin, url: skill.url, digestLf: now.actual!.lf, confirmUnverified: false, confirmCrossOrigin: false });
    expect(res).toEqual({ ok: true });
    const final = await ask<OriginReport>({ type: 'skillpin:report', origin: server.origin });
    const again = final.skills.find((s) => s.url === skill.url)!;
    expect(again.status).toBe('verified-signed');
    expect(again.approval.state).toBe('approved');
    expect(again.approval.approval?.keyFingerprint).toBe(final.key.pinned?.fingerprint);
  });
});

describe('key change', () => {
  it('notifies once when an origin with approvals changes key, and trusting carries the unchanged approval over', async () => {
    const report = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    const skill = report.skills[0]!;
    await ask({ type: 'skillpin:approve', origin: server.origin, url: skill.url, digestLf: skill.actual!.lf, confirmUnverified: false, confirmCrossOrigin: false });
    writePublisherSite(dir, { skills: DEMO_SKILLS, seed: seed(2) });
    const changed = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    expect(changed.key.state).toBe('changed');
    expect(platform.notifications).toHaveLength(1);
    expect(platform.badges.get(1)?.text).toBe('!');
    await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    expect(platform.notifications).toHaveLength(1);
    expect(service.onNotificationClick(platform.notifications[0]!.id)).toBe(server.origin);

    const worker = await ask<ContextResult>({ type: 'skillpin:skill-context', origin: server.origin, url: skill.url });
    expect(worker.ok).toBe(false);

    const wrong = await ask<ActionResult>({ type: 'skillpin:trust-key', origin: server.origin, expectedFingerprint: 'SHA256:stale', newFingerprint: changed.key.offered!.fingerprint });
    expect(wrong).toMatchObject({ ok: false, error: 'pin-changed' });
    const ok = await ask<ActionResult>({ type: 'skillpin:trust-key', origin: server.origin, expectedFingerprint: changed.key.pinned!.fingerprint, newFingerprint: changed.key.offered!.fingerprint });
    expect(ok).toEqual({ ok: true });
    const after = await ask<OriginReport>({ type: 'skillpin:report', origin: server.origin });
    expect(after.skills.every((s) => s.status === 'verified-signed')).toBe(true);
    // One decision, not one per skill: the approved skill's bytes did not change, so it stays approved.
    expect(after.skills.map((s) => s.approval.state)).toEqual(after.skills.map((s) => (s.url === skill.url ? 'approved' : 'none')));
    expect(after.skills.find((s) => s.url === skill.url)?.approval.approval?.keyFingerprint).toBe(changed.key.offered!.fingerprint);
    expect((await ask<ContextResult>({ type: 'skillpin:skill-context', origin: server.origin, url: skill.url })).ok).toBe(true);
  });

  it('an approved skill whose content changed with the key needs a new decision after trusting the key', async () => {
    const report = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    const kept = report.skills.find((s) => s.name === 'search-docs')!;
    const edited = report.skills.find((s) => s.name === 'api-client')!;
    for (const s of [kept, edited]) {
      await ask({ type: 'skillpin:approve', origin: server.origin, url: s.url, digestLf: s.actual!.lf, confirmUnverified: false, confirmCrossOrigin: false });
    }
    const skills = DEMO_SKILLS.map((s) => (s.name === 'api-client' ? { ...s, body: 'Changed with the key.\n' } : s));
    writePublisherSite(dir, { skills, seed: seed(2) });
    const changed = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    const ok = await ask<ActionResult>({ type: 'skillpin:trust-key', origin: server.origin, expectedFingerprint: changed.key.pinned!.fingerprint, newFingerprint: changed.key.offered!.fingerprint });
    expect(ok).toEqual({ ok: true });
    const after = await ask<OriginReport>({ type: 'skillpin:report', origin: server.origin });
    expect(after.skills.find((s) => s.url === kept.url)?.approval.state).toBe('approved');
    expect(after.skills.find((s) => s.url === edited.url)).toMatchObject({ status: 'verified-signed', approval: { state: 'none' } });
  });

  it('a revoked key: its skills are blocked, trusting it is refused, and forget does not let it be pinned again', async () => {
    await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    writePublisherSite(dir, { skills: DEMO_SKILLS, seed: seed(2) });
    const changed = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    const bad = changed.key.offered!.fingerprint;
    expect(await ask<ActionResult>({ type: 'skillpin:key-revoke', origin: server.origin, fingerprint: bad })).toEqual({ ok: true });
    const refused = await ask<ActionResult>({ type: 'skillpin:trust-key', origin: server.origin, expectedFingerprint: changed.key.pinned!.fingerprint, newFingerprint: bad });
    expect(refused).toMatchObject({ ok: false, error: 'key-revoked' });

    expect(await ask<ActionResult>({ type: 'skillpin:pin-forget', origin: server.origin })).toEqual({ ok: true });
    const after = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    expect(after.key).toMatchObject({ state: 'revoked', pinned: null });
    expect(after.skills.every((s) => s.status === 'key-changed' && s.statusCode === 'key-revoked')).toBe(true);
    expect(await ask<unknown[]>({ type: 'skillpin:pins-list' })).toEqual([]);
    const history = await ask<{ fingerprint: string; state: string }[]>({ type: 'skillpin:key-history' });
    expect(history.map((e) => [e.fingerprint, e.state])).toEqual([[bad, 'revoked']]);
    // Revoking is privileged and checks its input.
    expect(await ask({ type: 'skillpin:key-revoke', origin: server.origin, fingerprint: bad }, CONTENT_SCRIPT)).toMatchObject({ error: 'forbidden' });
    expect(await ask({ type: 'skillpin:key-revoke', origin: server.origin, fingerprint: 'SHA256:short' })).toMatchObject({ error: 'bad-request' });
  });
});

describe('an artifact redirected to another host', () => {
  it('shows the host that served it and needs the cross-host confirmation (the listed URL is on the origin)', async () => {
    const { readFileSync } = await import('node:fs');
    const bytes = readFileSync(join(dir, 'skills/search-docs/SKILL.md'));
    const elsewhere = await startServer({ files: { '/moved/SKILL.md': bytes } });
    const site = await startServer({
      root: dir,
      routes: [
        (_req, res, url) => {
          if (url.pathname !== '/skills/search-docs/SKILL.md') return false;
          res.writeHead(302, { Location: `${elsewhere.origin}/moved/SKILL.md` });
          res.end();
          return true;
        },
      ],
    });
    try {
      const report = await ask<OriginReport>({ type: 'skillpin:probe', origin: site.origin });
      const skill = report.skills.find((s) => s.name === 'search-docs')!;
      expect(skill.status).toBe('verified-signed');
      expect(skill.url).toBe(`${site.origin}/skills/search-docs/SKILL.md`);
      expect(skill.finalUrl).toBe(`${elsewhere.origin}/moved/SKILL.md`);
      expect(skill.crossOrigin).toBe(true);
      expect(skill.artifactHost).toBe(new URL(elsewhere.origin).host);
      const plain = await ask<ActionResult>({ type: 'skillpin:approve', origin: site.origin, url: skill.url, digestLf: skill.actual!.lf, confirmUnverified: false, confirmCrossOrigin: false });
      expect(plain.ok).toBe(false);
      const confirmed = await ask<ActionResult>({ type: 'skillpin:approve', origin: site.origin, url: skill.url, digestLf: skill.actual!.lf, confirmUnverified: false, confirmCrossOrigin: true });
      expect(confirmed).toEqual({ ok: true });
      // A revisit that reuses the stored bytes still knows where they came from.
      now += 10 * 60_000;
      const again = await ask<OriginReport>({ type: 'skillpin:probe', origin: site.origin });
      expect(again.skills.find((s) => s.name === 'search-docs')).toMatchObject({ crossOrigin: true, finalUrl: `${elsewhere.origin}/moved/SKILL.md` });
    } finally {
      await site.close();
      await elsewhere.close();
    }
  });
});
