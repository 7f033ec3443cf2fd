// The desktop mirror in real Firefox ESR: the host installed under a test HOME (Firefox reads
// $HOME/.mozilla/native-messaging-hosts/), nativeMessaging granted on request with a real click
// (the optional-permission prompt switched off for the test), and from an extension page the
// extension's own connection manager over browser.runtime.connectNative: the skill appears in
// the mirror and an agent folder byte for byte, and leaves both when withdrawn.
import { test, expect } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureFirefoxBuild, launchFirefox, newProfileDir, openExtensionPage, removeProfileDir } from './support';
import { desktopPageScript, desktopPlaces, forPage, installHost, treeOf, uninstallHost } from '../support/desktop';
import { SAMPLE_SKILLS, skillFromFolder } from '../../support/desktop';
import { NATIVE_HOST_NAME } from '../../../lib/desktop/limits';

test.describe.configure({ timeout: 180_000 });
test.beforeAll(() => ensureFirefoxBuild());

type Ext = { browser: { permissions: { request(p: object): Promise<boolean>; contains(p: object): Promise<boolean> }; runtime: { sendNativeMessage(n: string, m: object): Promise<unknown> } } };

async function grant(page: Page): Promise<boolean> {
  await page.evaluate(() => {
    const b = document.createElement('button');
    b.id = 'grant-native';
    b.textContent = 'grant';
    b.onclick = () => {
      (globalThis as unknown as { granted: Promise<boolean> }).granted = (globalThis as unknown as Ext).browser.permissions.request({ permissions: ['nativeMessaging'] });
    };
    document.body.append(b);
  });
  await page.click('#grant-native');
  return page.evaluate(() => (globalThis as unknown as { granted: Promise<boolean> }).granted);
}

async function mirror(page: Page, skills: Record<string, unknown>[], agents: string[]): Promise<Record<string, unknown>> {
  await page.evaluate(await desktopPageScript());
  return page.evaluate(
    (s, a) => (globalThis as unknown as { skillpinDesktop: { mirror(s: unknown, a: unknown, c: string[]): Promise<Record<string, unknown>> } }).skillpinDesktop.mirror(s, a, []),
    skills,
    agents,
  );
}

test('Firefox: a skill sent through connectNative lands in the mirror and the agent folder byte for byte; a withdrawal removes both', async () => {
  const places = desktopPlaces();
  mkdirSync(places.home, { recursive: true });
  const profileDir = newProfileDir();
  installHost(places, []);
  expect(existsSync(join(places.home, '.mozilla/native-messaging-hosts', `${NATIVE_HOST_NAME}.json`))).toBe(true);
  const ff = await launchFirefox(profileDir, { env: { HOME: places.home }, prefs: { 'extensions.webextOptionalPermissionPrompts': false } });
  try {
    let ext = await openExtensionPage(ff, 'options.html');
    expect(await ext.evaluate(() => (globalThis as unknown as Ext).browser.permissions.contains({ permissions: ['nativeMessaging'] }))).toBe(false);
    expect(await grant(ext)).toBe(true);
    await ext.close();
    ext = await openExtensionPage(ff, 'options.html');

    const skill = skillFromFolder(join(SAMPLE_SKILLS, 'acme/billing/refunds'));
    const state = await mirror(ext, [forPage(skill)], ['gemini-cli']);
    expect(state).toMatchObject({ kind: 'in-sync', summary: { held: 1, stored: [{ url: skill.url }], agents: [{ agent: 'gemini-cli', state: 'written', folder: 'refunds' }] } });
    expect(treeOf(join(places.home, '.gemini/skills/refunds'), ['.skillpin.json'])).toEqual(treeOf(join(SAMPLE_SKILLS, 'acme/billing/refunds')));

    const status = await ext.evaluate((name) => (globalThis as unknown as Ext).browser.runtime.sendNativeMessage(name, { type: 'status', id: 1 }), NATIVE_HOST_NAME);
    expect(status).toMatchObject({ type: 'status', skills: [{ url: skill.url }] });

    const after = await mirror(ext, [], ['gemini-cli']);
    expect(after).toMatchObject({ kind: 'in-sync', summary: { removed: [{ url: skill.url }] } });
    expect(existsSync(join(places.home, '.gemini/skills/refunds'))).toBe(false);
  } finally {
    await ff.close();
    removeProfileDir(profileDir);
    uninstallHost(places);
    places.cleanup();
  }
});
