// install-host, doctor and uninstall-host over homes laid out as real machines: a Linux one with
// Chrome Beta, Brave, the snap Chromium and the Flatpak Firefox, a macOS one with Edge and Vivaldi,
// and Windows' registry. Exactly the browsers that are there get a manifest (and the ones Skillpin is
// tested in, always); doctor names each by its browser; uninstall leaves none, nor a folder it made.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doctor } from '../../../host/doctor';
import { doctorText } from '../../../host/doctor-text';
import { install, uninstall } from '../../../host/install';
import { places } from '../../../host/places';
import { CHROME_CALLER, CHROME_ID, type TempPlaces, tempPlaces } from '../../support/desktop';

const MANIFEST = 'dev.skillpin.mirror.json';
let t: TempPlaces;
beforeEach(() => {
  t = tempPlaces();
  mkdirSync(t.home, { recursive: true });
  writeFileSync(join(t.root, 'program.mjs'), '// the bundle\n');
});
afterEach(() => t.cleanup());

const options = (profiles: string[] = []) => ({
  chromeIds: [CHROME_ID],
  chromeProfiles: profiles,
  program: join(t.root, 'program.mjs'),
  node: process.execPath,
  env: {},
  run: () => undefined,
});

/** Every manifest under the home and the test root, as paths relative to the root. */
function manifestsOnDisk(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name === MANIFEST) out.push(relative(t.root, join(dir, e.name)));
    }
  };
  walk(t.root);
  return out.sort();
}

const layout = (folders: string[]): void => {
  for (const f of folders) mkdirSync(join(t.home, f), { recursive: true });
};

describe('a Linux home with Chrome Beta, Brave, the snap Chromium and the Flatpak Firefox', () => {
  const present = ['.config/google-chrome-beta', '.config/BraveSoftware/Brave-Browser', 'snap/chromium/common/chromium', '.var/app/org.mozilla.firefox/.mozilla'];

  it('gets a manifest exactly where those browsers and the always-written ones look', () => {
    layout(present);
    const p = places({ home: t.home, dataDir: t.dataDir, platform: 'linux', env: {} });
    const { registered } = install(p, options([join(t.root, 'profile')]));
    expect(manifestsOnDisk()).toEqual(
      [
        'home/.config/google-chrome/NativeMessagingHosts',
        'home/.config/google-chrome-beta/NativeMessagingHosts',
        'home/.config/chromium/NativeMessagingHosts',
        'home/snap/chromium/common/chromium/NativeMessagingHosts',
        'home/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts',
        'home/.mozilla/native-messaging-hosts',
        'home/.var/app/org.mozilla.firefox/.mozilla/native-messaging-hosts',
        'profile/NativeMessagingHosts',
      ]
        .map((d) => `${d}/${MANIFEST}`)
        .sort(),
    );
    // Absent browsers got nothing: not even their folders were made.
    for (const absent of ['.config/microsoft-edge', '.config/vivaldi', '.config/google-chrome-unstable', '.var/app/org.chromium.Chromium', 'snap/firefox'])
      expect(existsSync(join(t.home, absent))).toBe(false);
    const brave = JSON.parse(readFileSync(join(t.home, '.config/BraveSoftware/Brave-Browser/NativeMessagingHosts', MANIFEST), 'utf8'));
    expect(brave.allowed_origins).toEqual([CHROME_CALLER]);
    const flatpak = JSON.parse(readFileSync(join(t.home, '.var/app/org.mozilla.firefox/.mozilla/native-messaging-hosts', MANIFEST), 'utf8'));
    expect(flatpak.allowed_extensions).toEqual(['skillpin@skillpin.dev']);
    expect(registered.map((r) => r.browser)).toEqual([
      `Chrome profile ${join(t.root, 'profile')}`,
      'Google Chrome',
      'Google Chrome Beta',
      'Chromium',
      'Chromium (snap)',
      'Brave',
      'Firefox',
      'Firefox (Flatpak)',
    ]);
  });

  it('doctor names every one by its browser, and a browser installed later without a manifest is a problem', () => {
    layout(present);
    const p = places({ home: t.home, dataDir: t.dataDir, platform: 'linux', env: {} });
    install(p, options());
    const report = doctor(p, {}, 'bin/skillpin install-host');
    const named = report.manifests.filter((m) => m.present).map((m) => [m.name, m.browser]);
    expect(named).toEqual([
      ['Google Chrome', 'chrome'],
      ['Google Chrome Beta', 'chrome'],
      ['Chromium', 'chrome'],
      ['Chromium (snap)', 'chrome'],
      ['Brave', 'chrome'],
      ['Firefox', 'firefox'],
      ['Firefox (Flatpak)', 'firefox'],
    ]);
    expect(report.manifests.every((m) => m.present && m.pointsExists)).toBe(true);
    const text = doctorText(report, 'linux');
    expect(text).toContain(`  Brave: ${join(t.home, '.config/BraveSoftware/Brave-Browser/NativeMessagingHosts', MANIFEST)}: allows ${CHROME_CALLER}`);
    expect(text).toContain(`  Firefox (Flatpak): ${join(t.home, '.var/app/org.mozilla.firefox/.mozilla/native-messaging-hosts', MANIFEST)}: allows skillpin@skillpin.dev`);

    layout(['.config/vivaldi']);
    const later = doctor(p, {}, 'bin/skillpin install-host');
    expect(later.problems).toContain(
      `Vivaldi has no Skillpin manifest (${join(t.home, '.config/vivaldi/NativeMessagingHosts', MANIFEST)}), so it cannot start the program. Run: bin/skillpin install-host`,
    );
  });

  it('uninstall removes every manifest and the folders install made, and leaves the browsers’ own', () => {
    layout(present);
    const p = places({ home: t.home, dataDir: t.dataDir, platform: 'linux', env: {} });
    install(p, options([join(t.root, 'profile')]));
    install(p, options([join(t.root, 'profile-b')]));
    const { removedFiles } = uninstall(p, () => undefined);
    expect(manifestsOnDisk()).toEqual([]);
    expect(removedFiles.filter((f) => f.endsWith(MANIFEST))).toHaveLength(9);
    for (const kept of present) expect(existsSync(join(t.home, kept))).toBe(true);
    // The Beta's own folder stays; the manifest folder install made in it goes.
    expect(existsSync(join(t.home, '.config/google-chrome-beta/NativeMessagingHosts'))).toBe(false);
    for (const made of ['.config/google-chrome', '.config/chromium', '.mozilla', join('..', 'profile'), join('..', 'profile-b')]) expect(existsSync(join(t.home, made))).toBe(false);
    expect(existsSync(t.dataDir)).toBe(false);
  });
});

describe('a macOS home with Edge and Vivaldi', () => {
  const support = 'Library/Application Support';

  it('install writes Chrome, Chromium, Edge, Vivaldi and Firefox; doctor names them; uninstall removes them', () => {
    layout([`${support}/Microsoft Edge`, `${support}/Vivaldi`]);
    const p = places({ home: t.home, dataDir: t.dataDir, platform: 'darwin', env: {} });
    install(p, options());
    const expected = ['Google/Chrome/NativeMessagingHosts', 'Chromium/NativeMessagingHosts', 'Microsoft Edge/NativeMessagingHosts', 'Vivaldi/NativeMessagingHosts', 'Mozilla/NativeMessagingHosts'].map(
      (d) => `home/${support}/${d}/${MANIFEST}`,
    );
    expect(manifestsOnDisk()).toEqual(expected.sort());
    for (const absent of ['Google/Chrome Beta', 'BraveSoftware', 'Chromium/NativeMessagingHosts/x']) expect(existsSync(join(t.home, support, absent))).toBe(false);

    const report = doctor(p, {}, 'bin/skillpin install-host');
    expect(report.manifests.map((m) => m.name)).toEqual(['Google Chrome', 'Chromium', 'Microsoft Edge', 'Vivaldi', 'Firefox']);
    expect(report.manifests.every((m) => m.present && m.pointsExists)).toBe(true);
    expect(doctorText(report, 'darwin')).toContain(`  Microsoft Edge: ${join(t.home, support, 'Microsoft Edge/NativeMessagingHosts', MANIFEST)}: allows ${CHROME_CALLER}`);

    uninstall(p, () => undefined);
    expect(manifestsOnDisk()).toEqual([]);
    expect(existsSync(join(t.home, support, 'Microsoft Edge'))).toBe(true);
    expect(existsSync(join(t.home, support, 'Google'))).toBe(false);
    expect(existsSync(join(t.home, 'Library'))).toBe(true);
  });
});

describe('Windows', () => {
  it('sets every registry key of the table for its family, and uninstall deletes each', () => {
    const p = places({ home: t.home, dataDir: t.dataDir, platform: 'win32', env: {} });
    const calls: string[][] = [];
    const { registered } = install(p, { ...options(), run: (c, a) => calls.push([c, ...a]) });
    const key = (k: string) => `HKCU\\Software\\${k}\\NativeMessagingHosts\\dev.skillpin.mirror`;
    const chromium = ['Google\\Chrome', 'Chromium', 'Microsoft\\Edge', 'BraveSoftware\\Brave-Browser', 'Vivaldi'].map(key);
    expect(calls).toEqual([
      ...chromium.map((k) => ['reg', 'add', k, '/ve', '/t', 'REG_SZ', '/d', join(t.dataDir, 'manifests', 'chrome.json'), '/f']),
      ['reg', 'add', key('Mozilla'), '/ve', '/t', 'REG_SZ', '/d', join(t.dataDir, 'manifests', 'firefox.json'), '/f'],
    ]);
    expect(registered.map((r) => r.browser)).toEqual(['Google Chrome', 'Chromium', 'Microsoft Edge', 'Brave', 'Vivaldi', 'Firefox']);
    const report = doctor(p, {}, 'skillpin install-host');
    expect(report.manifests.map((m) => m.name)).toEqual(['Google Chrome, Chromium, Microsoft Edge, Brave, Vivaldi (through the registry)', 'Firefox (through the registry)']);
    const deleted: string[][] = [];
    uninstall(p, (c, a) => deleted.push([c, ...a]));
    expect(deleted).toEqual([...chromium, key('Mozilla')].map((k) => ['reg', 'delete', k, '/f']));
    expect(existsSync(t.dataDir)).toBe(false);
  });
});
