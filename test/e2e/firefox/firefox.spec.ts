// Skillpin in real Firefox ESR (puppeteer-core over WebDriver BiDi; test/e2e/firefox/
// support.ts): probe → popup statuses → approve in the popup → insert into the real
// editors' composers → copy; a key-change warning; pins and approvals kept across a
// restart with the same profile; copies never go through the page.
import { test, expect } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { ensureFirefoxBuild, ffSend, ffTabId, ffWaitForReport, launchFirefox, newProfileDir, openExtensionPage, removeProfileDir, type FirefoxSession } from './support';
import { startPublisher, seed, type PublisherSite } from '../support/sites';
import { startComposerServer, type ComposerServer } from '../composers/server';
import { composerPage, COMPOSER_PAGES } from '../composers/catalogue';
import { HANDOFF_SKILL } from '../support/handoff-skill';
import { lineDiff } from '../support/composers';
import { AWAY_HOST, ELSEWHERE_HOST, PUB_HOST, startHopSite } from '../support/hop-site';
import type { OriginReport } from '../../../lib/types';
import type { ContextResult, InsertResult } from '../../../lib/messages';

test.describe.configure({ timeout: 180_000 });

let composers: ComposerServer;
test.beforeAll(async () => {
  ensureFirefoxBuild();
  composers = await startComposerServer();
});
test.afterAll(async () => {
  await composers?.close();
});

interface Fixture {
  ff: FirefoxSession;
  ext: Page;
  profileDir: string;
}

async function withFirefox(body: (f: Fixture) => Promise<void>, profileDir = newProfileDir(), keepProfile = false): Promise<void> {
  const ff = await launchFirefox(profileDir);
  try {
    const ext = await openExtensionPage(ff, 'options.html');
    await body({ ff, ext, profileDir });
  } finally {
    await ff.close();
    if (!keepProfile) removeProfileDir(profileDir);
  }
}

async function visit(ff: FirefoxSession, url: string): Promise<Page> {
  const page = await ff.browser.newPage();
  await page.goto(url);
  return page;
}

/** Visits the publisher, then approves `name` with the popup's own Approve button (real clicks). */
async function approveInPopup(f: Fixture, site: PublisherSite, name: string): Promise<{ url: string; context: string }> {
  await visit(f.ff, site.origin + '/');
  const report = await ffWaitForReport<OriginReport>(f.ext, site.origin);
  const skill = report.skills.find((s) => s.name === name);
  if (!skill?.url) throw new Error(`${name} missing`);
  const popup = await openExtensionPage(f.ff, `popup.html?origin=${encodeURIComponent(site.origin)}`);
  const card = `[data-skill-url="${skill.url}"]`;
  await popup.waitForSelector(`${card} [data-action="approve"]`);
  await popup.click(`${card} [data-action="approve"]`);
  await popup.waitForSelector(`${card} [data-action="copy"]`);
  await popup.close();
  const ctx = await ffSend<ContextResult>(f.ext, { type: 'skillpin:skill-context', origin: site.origin, url: skill.url });
  if (!ctx.ok) throw new Error(ctx.message);
  return { url: skill.url, context: ctx.context };
}

async function model(page: Page): Promise<{ model: string; sends: number; attachments: number; caretAtEnd: boolean }> {
  return page.evaluate(() => {
    const probe = window.composerTest;
    return { model: probe.model(), sends: probe.sends, attachments: probe.attachments.length, caretAtEnd: probe.caretAtEnd() };
  });
}

async function readClipboard(ext: Page): Promise<string> {
  return ext.evaluate(() => navigator.clipboard.readText());
}

test('Firefox: probe, statuses in the popup, approve there, Copy puts the exact context on the clipboard', async () => {
  const site = await startPublisher({ seed: seed(60) });
  try {
    await withFirefox(async (f) => {
      await visit(f.ff, site.origin + '/');
      await ffWaitForReport<OriginReport>(f.ext, site.origin);
      const popup = await openExtensionPage(f.ff, `popup.html?origin=${encodeURIComponent(site.origin)}`);
      await popup.waitForSelector('[data-skill-url] [data-status]');
      const statuses = await popup.$$eval('[data-skill-url] [data-status]', (els) => els.map((e) => e.getAttribute('data-status')));
      expect(statuses.length).toBe(5);
      expect(new Set(statuses)).toEqual(new Set(['verified-signed']));
      await popup.close();

      const skill = await approveInPopup(f, site, 'search-docs');
      const again = await openExtensionPage(f.ff, `popup.html?origin=${encodeURIComponent(site.origin)}`);
      await again.waitForSelector(`[data-skill-url="${skill.url}"] [data-action="copy"]`);
      await again.click(`[data-skill-url="${skill.url}"] [data-action="copy"]`);
      await again.waitForFunction(() => /copied/i.test(document.body.innerText));
      expect(await readClipboard(f.ext)).toBe(skill.context);
    });
  } finally {
    await site.close();
  }
});

test('Firefox: the skill context goes into the real editors line for line, nothing sent', async () => {
  const site = await startPublisher({ seed: seed(61), skills: [HANDOFF_SKILL] });
  const results: string[] = [];
  try {
    await withFirefox(async (f) => {
      const skill = await approveInPopup(f, site, HANDOFF_SKILL.name);
      for (const spec of COMPOSER_PAGES.filter((p) => p.id !== 'chatgpt-truncates')) {
        const chat = await visit(f.ff, composers.url(spec));
        await chat.waitForFunction(() => window.composerTest?.ready === true);
        const tabId = await ffTabId(f.ext, composers.url(spec));
        const result = await ffSend<InsertResult>(f.ext, { type: 'skillpin:insert', tabId, chatOrigin: composers.origin(spec), origin: site.origin, url: skill.url });
        const state = await model(chat);
        const ok = result.ok && state.model === skill.context && state.sends === 0 && state.attachments === 0 && state.caretAtEnd;
        results.push(
          `${spec.id}: ${ok ? 'ok' : `FAILED (${result.message}; ${lineDiff(state.model, skill.context)}; sends ${state.sends}, attachments ${state.attachments}, caret at end ${state.caretAtEnd})`}`,
        );
        await chat.close();
      }
    });
  } finally {
    await site.close();
  }
  expect(
    results.filter((r) => !r.endsWith(': ok')),
    results.join('\n'),
  ).toEqual([]);
});

test('Firefox: a composer that drops text is put back, the clipboard gets the skill from the extension, not through the page', async () => {
  const site = await startPublisher({ seed: seed(62), skills: [HANDOFF_SKILL] });
  try {
    await withFirefox(async (f) => {
      const skill = await approveInPopup(f, site, HANDOFF_SKILL.name);
      const spec = composerPage('chatgpt-truncates');
      const chat = await visit(f.ff, composers.url(spec));
      await chat.waitForFunction(() => window.composerTest?.ready === true);
      // The page rewrites anything copied through it.
      await chat.evaluate(() => {
        document.addEventListener(
          'copy',
          (e) => {
            e.clipboardData?.setData('text/plain', 'REWRITTEN BY THE PAGE');
            e.preventDefault();
          },
          true,
        );
      });
      const tabId = await ffTabId(f.ext, composers.url(spec));
      const result = await ffSend<InsertResult>(f.ext, { type: 'skillpin:insert', tabId, chatOrigin: composers.origin(spec), origin: site.origin, url: skill.url });
      expect(result.method, result.message).toBe('clipboard');
      expect(await model(chat)).toMatchObject({ model: '', sends: 0, attachments: 0 });
      expect(await chat.$$eval('skillpin-notice', (els) => els.length)).toBe(1);
      expect(await readClipboard(f.ext)).toBe(skill.context);
    });
  } finally {
    await site.close();
  }
});

test('Firefox: a new publisher key shows both fingerprints and blocks the skill', async () => {
  const site = await startPublisher({ seed: seed(63) });
  try {
    await withFirefox(async (f) => {
      await approveInPopup(f, site, 'api-client');
      const first = await ffWaitForReport<OriginReport>(f.ext, site.origin);
      const oldFp = first.key.pinned?.fingerprint;
      site.republish({ seed: seed(64) });
      const after = await ffSend<OriginReport>(f.ext, { type: 'skillpin:probe', origin: site.origin });
      const newFp = after.key.offered?.fingerprint;
      expect(oldFp && newFp && oldFp !== newFp).toBeTruthy();
      expect(after.skills.every((s) => s.status === 'key-changed')).toBe(true);
      const popup = await openExtensionPage(f.ff, `popup.html?origin=${encodeURIComponent(site.origin)}`);
      await popup.waitForSelector('[data-testid="key-banner"]');
      expect(await popup.$$eval(`[data-fingerprint="${oldFp}"]`, (els) => els.length)).toBeGreaterThan(0);
      expect(await popup.$$eval(`[data-fingerprint="${newFp}"]`, (els) => els.length)).toBeGreaterThan(0);
      const blocked = await ffSend<ContextResult>(f.ext, { type: 'skillpin:skill-context', origin: site.origin, url: after.skills.find((s) => s.name === 'api-client')?.url });
      expect(blocked.ok).toBe(false);
    });
  } finally {
    await site.close();
  }
});

test('Firefox: pins and approvals are kept across a restart with the same profile', async () => {
  const site = await startPublisher({ seed: seed(65) });
  const profileDir = newProfileDir();
  let fingerprint: string | undefined;
  try {
    await withFirefox(
      async (f) => {
        await approveInPopup(f, site, 'open-ticket');
        fingerprint = (await ffWaitForReport<OriginReport>(f.ext, site.origin)).key.pinned?.fingerprint;
      },
      profileDir,
      true,
    );
    expect(fingerprint).toBeTruthy();
    await withFirefox(async (f) => {
      const pins = await ffSend<{ origin: string; fingerprint: string }[]>(f.ext, { type: 'skillpin:pins-list' });
      expect(pins.map((p) => [p.origin, p.fingerprint])).toEqual([[site.origin, fingerprint]]);
      const approvals = await ffSend<{ origin: string; url: string }[]>(f.ext, { type: 'skillpin:approvals-list' });
      expect(approvals.map((a) => a.origin)).toEqual([site.origin]);
      const approved = await ffSend<{ name: string; usable: boolean }[]>(f.ext, { type: 'skillpin:approved-list' });
      expect(approved.map((a) => a.name)).toEqual(['open-ticket']);
    }, profileDir);
  } finally {
    await site.close();
    removeProfileDir(profileDir);
  }
});

test('Firefox: every redirect hop is checked before it is requested, and names that resolve to loopback are refused', async () => {
  const site = await startHopSite();
  const statusOf = (report: OriginReport, name: string): string => {
    const s = report.skills.find((k) => k.name === name);
    return s ? `${s.status}/${s.statusCode}` : 'missing';
  };
  try {
    await withFirefox(async (f) => {
      // Every name resolves to 127.0.0.1 here (network.dns.forceResolve): pub.skillpin.test is a
      // public name whose own host the user visited; any other name now answers with loopback.
      const report = await ffSend<OriginReport>(f.ext, { type: 'skillpin:probe', origin: site.origin });
      expect(statusOf(report, 'control')).toBe('verified/verified');
      expect(statusOf(report, 'to-private')).toBe('invalid/url-blocked');
      expect(site.hit('127.0.0.1', '/secret/')).toBe(false);
      const llms = report.sources.find((s) => s.kind === 'llms-txt');
      expect(`${llms?.outcome}/${llms?.reason}`).toBe('absent/cross-origin-redirect');
      // Cancelled before it went out: the other host never saw the hop.
      expect(site.hit(AWAY_HOST, '/')).toBe(false);
      expect(site.hit(PUB_HOST, '/llms-real.txt')).toBe(false);
      expect(statusOf(report, 'bounce')).toBe('invalid/url-blocked');
      expect(statusOf(report, 'dns')).toBe('invalid/url-blocked');
      expect(site.hit(ELSEWHERE_HOST, '/')).toBe(false);

      const secure = await ffSend<OriginReport>(f.ext, { type: 'skillpin:probe', origin: site.httpsOrigin });
      expect(statusOf(secure, 'control')).toBe('verified/verified');
      expect(statusOf(secure, 'down')).toBe('invalid/url-blocked');
      expect(site.hit('127.0.0.1', '/down-hop')).toBe(false);
    });
  } finally {
    await site.close();
  }
});

test('Firefox: Export for upload saves the verified bytes as <name>/SKILL.md; no frontmatter: a reason, no file; a change marks it out of date', async () => {
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { unzipSync } = await import('fflate');
  const fixture = (name: string) => readFileSync(join('test/fixtures/export', name), 'utf8');
  const skills = [
    { name: 'pdf-processing', description: 'Extract PDF text, fill forms, merge files. Use when handling PDFs.', raw: fixture('spec-with-optional-fields.SKILL.md') },
    { name: 'site-facts', description: 'Facts about the site.', raw: fixture('no-frontmatter-site-facts.SKILL.md') },
  ];
  const site = await startPublisher({ seed: seed(66), skills });
  try {
    await withFirefox(async (f) => {
      const pdf = await approveInPopup(f, site, 'pdf-processing');
      const facts = await approveInPopup(f, site, 'site-facts');
      const popup = await openExtensionPage(f.ff, `popup.html?origin=${encodeURIComponent(site.origin)}`);
      // The blob the popup hands to the download anchor is kept for the test, and the anchor is not followed.
      await popup.evaluate(() => {
        const w = window as unknown as { savedExports: { name: string; b64: Promise<string> }[] };
        w.savedExports = [];
        const create = URL.createObjectURL.bind(URL);
        const blobs = new Map<string, Blob>();
        URL.createObjectURL = (b: Blob | MediaSource) => {
          const u = create(b);
          if (b instanceof Blob) blobs.set(u, b);
          return u;
        };
        HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
          const blob = blobs.get(this.href);
          if (!blob) return;
          const b64 = blob.arrayBuffer().then((buf) => {
            let s = '';
            for (const byte of new Uint8Array(buf)) s += String.fromCharCode(byte);
            return btoa(s);
          });
          w.savedExports.push({ name: this.download, b64 });
        };
      });
      await popup.waitForSelector(`[data-skill-url="${pdf.url}"] [data-action="export"]`);
      await popup.click(`[data-skill-url="${pdf.url}"] [data-action="export"]`);
      await popup.waitForSelector(`[data-skill-url="${pdf.url}"] [data-testid="export-current"]`);
      const saved = await popup.evaluate(async () => {
        const w = window as unknown as { savedExports: { name: string; b64: Promise<string> }[] };
        return Promise.all(w.savedExports.map(async (e) => ({ name: e.name, b64: await e.b64 })));
      });
      expect(saved.map((s) => s.name)).toEqual(['pdf-processing.zip']);
      const files = unzipSync(new Uint8Array(Buffer.from(saved[0]!.b64, 'base64')));
      expect(Object.keys(files)).toEqual(['pdf-processing/SKILL.md']);
      expect(Buffer.from(files['pdf-processing/SKILL.md']!).equals(readFileSync(join(site.dir, 'skills/pdf-processing/SKILL.md')))).toBe(true);

      await popup.click(`[data-skill-url="${facts.url}"] [data-action="export"]`);
      await popup.waitForSelector(`[data-skill-url="${facts.url}"] [data-testid="export-problems"]`);
      expect(await popup.$eval(`[data-skill-url="${facts.url}"] [data-testid="export-problems"]`, (e) => e.textContent ?? '')).toContain('no YAML frontmatter');
      expect(await popup.evaluate(() => (window as unknown as { savedExports: unknown[] }).savedExports.length)).toBe(1);
      await popup.close();

      site.republish({ seed: seed(66), skills: [{ ...skills[0]!, raw: skills[0]!.raw + '\nAlso rotate scanned pages.\n' }, skills[1]!] });
      const after = await ffSend<OriginReport>(f.ext, { type: 'skillpin:probe', origin: site.origin });
      expect(after.skills.find((s) => s.url === pdf.url)?.status).toBe('content-changed');
      const again = await openExtensionPage(f.ff, `popup.html?origin=${encodeURIComponent(site.origin)}`);
      await again.waitForSelector(`[data-skill-url="${pdf.url}"] [data-testid="export-outdated"]`);
    });
  } finally {
    await site.close();
  }
});
