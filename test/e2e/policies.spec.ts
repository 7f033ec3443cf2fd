// Organisation policies in a real Chromium (docs/policies.md): a policy file in Chromium's
// managed-policy directory gives this extension managed storage through "3rdparty" extension
// data, which the background reads with storage.managed. The file is written only for the run,
// with a name of its own, and names only this build's extension id (derived from its path), so
// no other Chromium or extension on the machine is affected; it is removed afterwards. Skipped
// where that directory cannot be written (not root), except under CI, where it fails.
import { accessSync, constants, existsSync, mkdirSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { EXTENSION_DIR, launch, send } from './support/extension';
import { startPublisher, seed } from './support/sites';
import { unpackedExtensionId } from '../../scripts/lib/chromium.mjs';
import { keyPair } from '../../scripts/lib/publisher-site.mjs';
import { fingerprint } from '../../lib/verify/fingerprint';
import type { OriginReport, Settings } from '../../lib/types';
import type { ActionResult, PolicySummary } from '../../lib/messages';

const POLICY_DIR = '/etc/chromium/policies/managed';

/** Root, and /etc/chromium exists (the Chromium these tests run reads policies under it). */
function policyDirWritable(): boolean {
  try {
    if (process.getuid?.() !== 0) return false;
    accessSync('/etc/chromium', constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Creates the policy directory; returns the directories it created (to remove again, if left empty). */
function makePolicyDir(): string[] {
  const created: string[] = [];
  for (const dir of ['/etc/chromium/policies', POLICY_DIR]) {
    if (existsSync(dir)) continue;
    mkdirSync(dir);
    created.push(dir);
  }
  return created;
}

function removeIfEmpty(dirs: string[]): void {
  for (const dir of [...dirs].reverse()) {
    try {
      if (readdirSync(dir).length === 0) rmdirSync(dir);
    } catch {
      // Someone else's file is there now: the directory stays.
    }
  }
}

const test = base;
const writable = policyDirWritable();
const NOT_WRITABLE = `${POLICY_DIR} cannot be written here (needs root); policies are covered by test/unit/store/policy.test.ts, test/unit/probe/probe-origin.policy-keys.test.ts and test/unit/background/service.policy.test.ts`;
// On a developer's machine without root the test skips itself; under CI (which runs as root) it
// must run, so there it fails instead of skipping.
// biome-ignore lint/suspicious/noSkippedTests: skipped only outside CI, where it cannot run; under CI it fails (below)
test.skip(!writable && !process.env.CI, NOT_WRITABLE);

test('a Chromium policy for this extension locks settings, pins a publisher key and allows only signed skills', async () => {
  if (!writable) throw new Error(`${NOT_WRITABLE}. Under CI this test must run.`);
  // The site signs with one key; the administrator pinned another for it.
  const site = await startPublisher({ seed: seed(11) });
  const admin = keyPair(seed(12));
  const adminFp = fingerprint(admin.publicKey);
  const extensionId = unpackedExtensionId(EXTENSION_DIR);
  const file = join(POLICY_DIR, `skillpin-e2e-${extensionId}-${process.pid}.json`);
  const policy = {
    denyList: ['https://bank.example'],
    chatSites: ['http://127.0.0.1:4999'],
    requireSignedSkills: true,
    pinnedKeys: { [site.origin]: admin.publicKeyB64 },
  };
  const createdDirs = makePolicyDir();
  writeFileSync(file, JSON.stringify({ '3rdparty': { extensions: { [extensionId]: policy } } }));
  const profileDir = mkdtempSync(join(tmpdir(), 'skillpin-e2e-policy-'));
  let close: (() => Promise<void>) | null = null;
  try {
    const { context, sw, extensionId: loadedId } = await launch(profileDir);
    close = () => context.close();
    expect(loadedId).toBe(extensionId);
    // Chromium delivers the policy through managed storage, checked against public/managed_schema.json.
    await expect.poll(() => sw.evaluate(() => chrome.storage.managed.get()), { timeout: 20_000 }).toMatchObject(policy);

    const page = await context.newPage();
    await page.goto(`chrome-extension://${extensionId}/options.html`);
    const summary = await send<PolicySummary>(page, { type: 'skillpin:policy-get' });
    expect(summary).toMatchObject({ active: true, managedFields: ['denyList', 'chatSites'], requireSigned: true, pinnedKeys: [{ origin: site.origin, fingerprint: adminFp }] });

    // The options page shows the organisation's values, marked and locked.
    await expect(page.locator('#set-denyList')).toHaveValue('https://bank.example');
    await expect(page.locator('#set-denyList')).toHaveJSProperty('readOnly', true);
    await expect(page.getByTestId('managed-denyList')).toHaveText('Managed by your organisation');
    await expect(page.getByTestId('managed-chatSites')).toBeVisible();
    await expect(page.getByTestId('managed-paused')).toHaveCount(0);
    await expect(page.getByTestId('policy-require-signed')).toBeVisible();
    await expect(page.getByTestId('policy-pinned-keys')).toContainText(site.origin);

    // A change to a managed field is refused; an unmanaged one saves.
    const refused = await send<ActionResult>(page, { type: 'skillpin:settings-update', changes: { denyList: [] } });
    expect(refused).toMatchObject({ ok: false, error: 'managed-setting' });
    await page.locator('#set-legacyIndex').uncheck();
    await expect(page.getByTestId('announcer')).toContainText('Saved: Also look for the legacy index');
    const eff = await send<Settings>(page, { type: 'skillpin:settings-get' });
    expect(eff).toMatchObject({ legacyIndex: false, denyList: ['https://bank.example'], chatSites: ['http://127.0.0.1:4999'] });

    // The first probe does not pin the site's key: it is key-changed against the administrator's.
    const report = await send<OriginReport>(page, { type: 'skillpin:probe', origin: site.origin });
    expect(report.key).toMatchObject({ state: 'changed', pinnedBy: 'policy', pinned: { fingerprint: adminFp } });
    expect(report.skills.length).toBeGreaterThan(0);
    expect(report.skills.every((s) => s.status === 'key-changed')).toBe(true);
    expect(await send(page, { type: 'skillpin:pins-list' })).toEqual([]);
    const trust = await send<ActionResult>(page, { type: 'skillpin:trust-key', origin: site.origin, expectedFingerprint: adminFp, newFingerprint: report.key.offered?.fingerprint ?? '' });
    expect(trust).toMatchObject({ ok: false, error: 'key-managed' });

    // The popup names the administrator's key and offers no way to trust the site's.
    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${extensionId}/popup.html?origin=${encodeURIComponent(site.origin)}`);
    await expect(popup.getByTestId('key-pinned-by-policy')).toBeVisible();
    await expect(popup.locator('[data-action="trust-key"]')).toHaveCount(0);
  } finally {
    await close?.();
    rmSync(file, { force: true });
    removeIfEmpty(createdDirs);
    rmSync(profileDir, { recursive: true, force: true });
    await site.close();
  }
  expect(existsSync(file)).toBe(false);
});

test('requireSignedSkills set after an unsigned skill was approved: every hand-off path refuses it, Export for upload included', async () => {
  const site = await startPublisher({ seed: seed(13), sign: false });
  const extensionId = unpackedExtensionId(EXTENSION_DIR);
  const file = join(POLICY_DIR, `skillpin-e2e-signed-${extensionId}-${process.pid}.json`);
  const createdDirs = makePolicyDir();
  const profileDir = mkdtempSync(join(tmpdir(), 'skillpin-e2e-policy-signed-'));
  let close: (() => Promise<void>) | null = null;
  try {
    // Without a policy the unsigned (verified) skill is approved, and it exports.
    const first = await launch(profileDir);
    close = () => first.context.close();
    const page = await first.context.newPage();
    await page.goto(`chrome-extension://${extensionId}/options.html`);
    const report = await send<OriginReport>(page, { type: 'skillpin:probe', origin: site.origin });
    const skill = report.skills[0];
    if (!skill?.url || !skill.actual) throw new Error(`no skill: ${JSON.stringify(report).slice(0, 600)}`);
    expect(skill.status).toBe('verified');
    expect(await send<ActionResult>(page, { type: 'skillpin:approve', origin: site.origin, url: skill.url, digestLf: skill.actual.lf, confirmUnverified: false, confirmCrossOrigin: false })).toEqual({
      ok: true,
    });
    expect(await send<{ ok: boolean }>(page, { type: 'skillpin:skill-export', origin: site.origin, url: skill.url })).toMatchObject({ ok: true });
    await first.context.close();
    close = null;

    // The organisation then allows only verified-signed skills.
    writeFileSync(file, JSON.stringify({ '3rdparty': { extensions: { [extensionId]: { requireSignedSkills: true } } } }));
    const second = await launch(profileDir);
    close = () => second.context.close();
    await expect.poll(() => second.sw.evaluate(() => chrome.storage.managed.get()), { timeout: 20_000 }).toMatchObject({ requireSignedSkills: true });
    const again = await second.context.newPage();
    await again.goto(`chrome-extension://${extensionId}/options.html`);
    expect(await send<ActionResult>(again, { type: 'skillpin:skill-context', origin: site.origin, url: skill.url })).toMatchObject({ ok: false, error: 'policy-requires-signed' });
    expect(await send<ActionResult>(again, { type: 'skillpin:skill-export', origin: site.origin, url: skill.url })).toMatchObject({ ok: false, error: 'policy-requires-signed' });
    const listed = await send<{ url: string; usable: boolean }[]>(again, { type: 'skillpin:approved-list' });
    expect(listed.find((a) => a.url === skill.url)?.usable).toBe(false);
  } finally {
    await close?.();
    rmSync(file, { force: true });
    removeIfEmpty(createdDirs);
    rmSync(profileDir, { recursive: true, force: true });
    await site.close();
  }
  expect(existsSync(file)).toBe(false);
});
