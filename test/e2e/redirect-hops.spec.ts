// Every redirect hop is checked in Chromium as it is under node (PRODUCT.md §2.3, §2.5; FORMATS.md
// §9.2–9.3). The publisher looks public (its names are mapped onto 127.0.0.1 by the resolver
// flags), so a hop to 127.0.0.1 is a private target seen from a public origin.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { launch, send } from './support/extension';
import { HOP_HOSTS, startHopSite, type HopSite } from './support/hop-site';
import { blockRules } from '../../lib/net/dnr-rules';
import type { OriginReport } from '../../lib/types';

const ARGS = [`--host-resolver-rules=${HOP_HOSTS.map((h) => `MAP ${h} 127.0.0.1`).join(', ')}`, '--ignore-certificate-errors'];

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
  const { context, sw } = await launch(dir, ARGS);
  try {
    const expected = blockRules();
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
    // /llms.txt → another host → back to the origin: the document is not taken.
    const llms = report.sources.find((s) => s.kind === 'llms-txt');
    expect(`${llms?.outcome}/${llms?.reason}`).toBe('absent/cross-origin-redirect');
    expect(report.skills.some((s) => s.name === 'from-llms')).toBe(false);
    // Chrome only reports the hops (no blocking webRequest): the request is aborted at the refused
    // hop, but the browser may have followed the public hops already; the bytes are never used.
    // (Firefox cancels before the hop goes out: its test checks the server never saw it.)
    // An artifact may pass through other public hosts; the final URL is what it reports.
    expect(statusOf(report, 'bounce')).toBe('verified/verified');
    expect(report.skills.find((s) => s.name === 'bounce')?.finalUrl).toBe(`${site.origin}/skills/bounce-final/SKILL.md`);
    // Chromium has no name lookup for extensions: a public name is taken by its name.
    expect(statusOf(report, 'dns')).toBe('verified/verified');
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
