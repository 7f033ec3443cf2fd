// Every redirect hop is checked in Chromium as it is under node (PRODUCT.md §2.3, §2.5; FORMATS.md
// §9.2–9.3). The publisher looks public (its names are mapped onto 127.0.0.1 by the resolver
// flags), so a hop to 127.0.0.1 is a private target seen from a public origin.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { launch, send } from './support/extension';
import { AWAY_HOST, ELSEWHERE_ADDRESS, ELSEWHERE_HOST, HOP_HOSTS, PUB_HOST, startHopSite, type HopSite } from './support/hop-site';
import { blockRules, FIRST_PERMIT_ID } from '../../lib/net/dnr-rules';
import { startLocalSite } from './support/local-site';
import type { OriginReport } from '../../lib/types';

// The publisher answers from 127.0.0.1, the other public-looking names from 127.0.0.2: names that
// resolve into the local network, somewhere the visited origin's own responses never came from.
const ARGS = [`--host-resolver-rules=${HOP_HOSTS.map((h) => `MAP ${h} ${h === PUB_HOST ? '127.0.0.1' : ELSEWHERE_ADDRESS}`).join(', ')}`, '--ignore-certificate-errors'];
/** Every name answering from one address, as behind a proxy (Chrome then reports the proxy's address for all). */
const PROXY_ARGS = [`--host-resolver-rules=${HOP_HOSTS.map((h) => `MAP ${h} 127.0.0.1`).join(', ')}`, '--ignore-certificate-errors'];

let site: HopSite;
test.beforeAll(async () => {
  site = await startHopSite();
});
test.afterAll(async () => {
  await site?.close();
});

function statusOf(report: OriginReport, name: string): string {
  const s = report.skills.find((k) => k.name === name);
  return s ? `${s.status}/${s.statusCode}` : 'missing';
}

test('Chromium: every block rule is installed as a session rule (none skipped over its compiled size)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillpin-hops-'));
  const { context, sw, extensionId } = await launch(dir, ARGS);
  try {
    const expected = blockRules(extensionId);
    for (const rule of expected) {
      const verdict = await sw.evaluate((regex) => chrome.declarativeNetRequest.isRegexSupported({ regex }), rule.condition.regexFilter ?? '');
      expect(verdict, rule.condition.regexFilter).toEqual({ isSupported: true });
    }
    await expect.poll(async () => (await sw.evaluate(() => chrome.declarativeNetRequest.getSessionRules())).map((r) => r.id).sort((a, b) => a - b)).toEqual(expected.map((r) => r.id));
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Chromium: a public origin cannot redirect the extension to a private address, or take a discovery document off the origin and back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillpin-hops-'));
  const { context } = await launch(dir, ARGS);
  try {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${new URL(context.serviceWorkers()[0]!.url()).host}/options.html`);
    const report = await send<OriginReport>(page, { type: 'skillpin:probe', origin: site.origin });

    expect(statusOf(report, 'control')).toBe('verified/verified');
    // 302 → http://127.0.0.1/…: refused, and the private address never saw the request.
    expect(statusOf(report, 'to-private')).toBe('invalid/url-blocked');
    expect(site.hit('127.0.0.1', '/secret/')).toBe(false);
    // /llms.txt → another host → back to the origin: the document is not taken, and the hop off
    // the origin is never requested (each hop is checked before it is requested, from the
    // Location webRequest reports).
    const llms = report.sources.find((s) => s.kind === 'llms-txt');
    expect(`${llms?.outcome}/${llms?.reason}`).toBe('absent/cross-origin-redirect');
    expect(report.skills.some((s) => s.name === 'from-llms')).toBe(false);
    expect(site.hit(AWAY_HOST, '/back-to-llms')).toBe(false);
    expect(site.hit(PUB_HOST, '/llms-real.txt')).toBe(false);
    // Hops within the origin's own host are followed; the final URL is what the skill reports.
    expect(statusOf(report, 'hop')).toBe('verified/verified');
    expect(report.skills.find((s) => s.name === 'hop')?.finalUrl).toBe(`${site.origin}/skills/hop-final/SKILL.md`);
    // Where a name resolved (webRequest's ip): away.skillpin.test and elsewhere.skillpin.test are
    // public names that answer with 127.0.0.1 here, so an artifact they serve, or a hop through
    // them, is refused as in Firefox. Chrome has no name lookup for extensions: unlike Firefox,
    // it has already sent that request when it learns the address; only the bytes are dropped.
    expect(statusOf(report, 'bounce')).toBe('invalid/url-blocked');
    expect(site.hit(PUB_HOST, '/skills/bounce-final/')).toBe(false);
    expect(statusOf(report, 'dns')).toBe('invalid/url-blocked');
    expect(site.hit(ELSEWHERE_HOST, '/skills/dns/')).toBe(true);
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Chromium: an https artifact chain with a plain-http hop in the middle is refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillpin-hops-'));
  const { context } = await launch(dir, ARGS);
  try {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${new URL(context.serviceWorkers()[0]!.url()).host}/options.html`);
    const report = await send<OriginReport>(page, { type: 'skillpin:probe', origin: site.httpsOrigin });
    expect(statusOf(report, 'control')).toBe('verified/verified');
    expect(statusOf(report, 'down')).toBe('invalid/url-blocked');
    expect(site.hit('https:127.0.0.1', '/skills/down-final/')).toBe(false);
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Chromium: a private origin probing itself follows its own redirects, each hop with a permit for exactly its URL, held only while that request runs', async () => {
  const local = await startLocalSite();
  const dir = mkdtempSync(join(tmpdir(), 'skillpin-hops-'));
  const { context, sw, extensionId } = await launch(dir, ARGS);
  const permits = async (): Promise<unknown[]> => (await sw.evaluate(() => chrome.declarativeNetRequest.getSessionRules())).filter((r) => r.id >= FIRST_PERMIT_ID).map((r) => r.condition);
  try {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extensionId}/options.html`);
    const probe = send<OriginReport>(page, { type: 'skillpin:probe', origin: local.origin });
    // While the held skill's request runs, its URL is the only one let through.
    await expect.poll(() => local.held()).toBe(1);
    await expect.poll(permits).toEqual([{ urlFilter: `|${local.heldUrl}|`, isUrlFilterCaseSensitive: true, tabIds: [-1], initiatorDomains: [extensionId] }]);
    // Another URL of the same private origin stays blocked for the extension meanwhile.
    const other = await sw.evaluate(
      (u) =>
        fetch(u).then(
          (r) => `${r.status}`,
          (e: Error) => e.name,
        ),
      `${local.origin}/other/SKILL.md`,
    );
    expect(other).toBe('TypeError');
    expect(local.hits.some((h) => h.path === '/other/SKILL.md')).toBe(false);
    local.release();
    const report = await probe;

    // Its own redirects are followed: within the origin, and to another local host.
    const llms = report.sources.find((s) => s.kind === 'llms-txt');
    expect(llms?.outcome).toBe('ok');
    // llms.txt lists it without a digest: fetched and shown, not verified.
    expect(statusOf(report, 'from-docs')).toBe('unverified/unverified-no-digest');
    expect(statusOf(report, 'same-hop')).toBe('verified/verified');
    expect(report.skills.find((s) => s.name === 'same-hop')?.finalUrl).toBe(`${local.origin}/skills/same-final/SKILL.md`);
    expect(statusOf(report, 'to-localhost')).toBe('verified/verified');
    expect(report.skills.find((s) => s.name === 'to-localhost')?.finalUrl).toBe(`http://localhost:${local.port}/skills/on-localhost/SKILL.md`);
    expect(statusOf(report, 'held')).toBe('verified/verified');
    // No permit outlives its request.
    await expect.poll(permits).toEqual([]);
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
    await local.close();
  }
});

test('Chromium behind a proxy: another host answering from the address the visited origin answered from is not held against it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillpin-hops-proxy-'));
  const { context } = await launch(dir, PROXY_ARGS);
  try {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${new URL(context.serviceWorkers()[0]!.url()).host}/options.html`);
    const report = await send<OriginReport>(page, { type: 'skillpin:probe', origin: site.origin });
    // The address says nothing about where elsewhere.skillpin.test resolves: its artifact is used.
    expect(statusOf(report, 'dns')).toBe('verified/verified');
    // A literal private target is still refused by its name, never requested.
    expect(statusOf(report, 'to-private')).toBe('invalid/url-blocked');
    expect(site.hit('127.0.0.1', '/secret/')).toBe(false);
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
