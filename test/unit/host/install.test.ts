// install-host and uninstall-host over a temporary home: the manifests each browser reads, allowed
// only for Skillpin's ids, the launcher, the Windows registry commands, and an uninstall that
// removes exactly what was written plus every agent copy and the mirror.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { install, mcpConfig, uninstall } from '../../../host/install';
import { answer } from '../../../host/native-host';
import { manifestPlaces, places, registryPlaces } from '../../../host/places';
import { CHROME_CALLER, CHROME_ID, choices, messagesFor, skillMd, type TempPlaces, tempPlaces, textSkill } from '../../support/desktop';

let t: TempPlaces;
beforeEach(() => {
  t = tempPlaces();
  mkdirSync(t.root, { recursive: true });
  writeFileSync(join(t.root, 'program.mjs'), '// the bundle\n');
});
afterEach(() => t.cleanup());

const options = (over: Partial<Parameters<typeof install>[1]> = {}) => ({
  chromeIds: [CHROME_ID],
  chromeProfiles: [join(t.root, 'profile')],
  program: join(t.root, 'program.mjs'),
  node: '/usr/bin/node',
  env: { SKILLPIN_DATA_DIR: t.dataDir },
  run: () => undefined,
  ...over,
});

describe('install-host', () => {
  it('writes the Chrome, Chromium, test-profile and Firefox manifests for Skillpin’s ids only', () => {
    const p = places({ home: t.home, dataDir: t.dataDir, platform: 'linux', env: {} });
    const { record } = install(p, options());
    const chrome = JSON.parse(readFileSync(join(t.home, '.config/google-chrome/NativeMessagingHosts/dev.skillpin.mirror.json'), 'utf8'));
    expect(chrome).toEqual({ name: 'dev.skillpin.mirror', description: expect.any(String), path: join(t.dataDir, 'bin/skillpin-native-host'), type: 'stdio', allowed_origins: [CHROME_CALLER] });
    expect(existsSync(join(t.home, '.config/chromium/NativeMessagingHosts/dev.skillpin.mirror.json'))).toBe(true);
    expect(existsSync(join(t.root, 'profile/NativeMessagingHosts/dev.skillpin.mirror.json'))).toBe(true);
    const firefox = JSON.parse(readFileSync(join(t.home, '.mozilla/native-messaging-hosts/dev.skillpin.mirror.json'), 'utf8'));
    expect(firefox.allowed_extensions).toEqual(['skillpin@skillpin.dev']);
    expect(readFileSync(join(t.dataDir, 'bin/skillpin-native-host'), 'utf8')).toContain(`SKILLPIN_DATA_DIR='${t.dataDir}'; export SKILLPIN_DATA_DIR\nSKILLPIN_NODE='/usr/bin/node'\n`);
    expect(readFileSync(join(t.dataDir, 'bin/skillpin-native-host'), 'utf8')).toContain(`exec "$n" '${join(t.dataDir, 'bin/skillpin.mjs')}' native-host "$@"`);
    expect(JSON.parse(readFileSync(join(t.dataDir, 'install.json'), 'utf8'))).toEqual(record);
  });

  it('refuses an id that is not a Chrome id, and writes no Chrome manifest without one', () => {
    const p = places({ home: t.home, dataDir: t.dataDir, platform: 'linux', env: {} });
    expect(() => install(p, options({ chromeIds: ['not-an-id'] }))).toThrow(/Chrome extension id/);
    const { notes } = install(p, options({ chromeIds: [] }));
    expect(notes.join()).toMatch(/--chrome-id/);
    expect(existsSync(join(t.home, '.config/google-chrome'))).toBe(false);
  });

  it('uses the macOS folders, and on Windows the registry keys under HKCU', () => {
    const mac = places({ home: t.home, dataDir: t.dataDir, platform: 'darwin', env: {} });
    expect(manifestPlaces(mac).flatMap((m) => (m.family === 'chromium' && m.written ? [m.dir] : []))).toEqual([
      join(t.home, 'Library/Application Support/Google/Chrome/NativeMessagingHosts'),
      join(t.home, 'Library/Application Support/Chromium/NativeMessagingHosts'),
    ]);
    expect(mac.dataDir).toBe(t.dataDir);
    expect(places({ home: '/Users/u', platform: 'darwin', env: {} }).dataDir).toBe('/Users/u/Library/Application Support/Skillpin');
    const calls: string[][] = [];
    const win = places({ home: t.home, dataDir: t.dataDir, platform: 'win32', env: {} });
    install(win, options({ chromeProfiles: [], run: (c, a) => calls.push([c, ...a]) }));
    expect(calls).toEqual([
      ...registryPlaces('chromium').map(({ key: k }) => ['reg', 'add', k, '/ve', '/t', 'REG_SZ', '/d', join(t.dataDir, 'manifests/chrome.json'), '/f']),
      ...registryPlaces('firefox').map(({ key: k }) => ['reg', 'add', k, '/ve', '/t', 'REG_SZ', '/d', join(t.dataDir, 'manifests/firefox.json'), '/f']),
    ]);
    expect(registryPlaces('chromium')[0]?.key).toBe('HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.skillpin.mirror');
    expect(readFileSync(join(t.dataDir, 'bin/skillpin-native-host.cmd'), 'utf8')).toContain('native-host %*');
    expect(places({ home: 'C:\\Users\\u', platform: 'win32', env: { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' } }).dataDir).toContain('Skillpin');
  });

  it('prints MCP client configuration in both shapes', () => {
    const p = places({ home: t.home, dataDir: t.dataDir, platform: 'linux', env: {} });
    const c = mcpConfig(p, '/usr/bin/node', {});
    // The installed launcher, which finds a Node.js at run time; on Windows node itself.
    expect(c.mcpServers).toEqual({ mcpServers: { skillpin: { command: join(t.dataDir, 'bin/skillpin'), args: ['mcp'] } } });
    expect(c.vscode).toEqual({ servers: { skillpin: { type: 'stdio', command: join(t.dataDir, 'bin/skillpin'), args: ['mcp'] } } });
    const win = mcpConfig(places({ home: t.home, dataDir: t.dataDir, platform: 'win32', env: {} }), 'C:\\node\\node.exe', {});
    expect(win.mcpServers).toEqual({ mcpServers: { skillpin: { command: 'C:\\node\\node.exe', args: [join(t.dataDir, 'bin', 'skillpin.mjs'), 'mcp'] } } });
  });
});

describe('uninstall-host', () => {
  it('removes every agent copy, the mirror and what install wrote, and nothing else', async () => {
    const p = places({ home: t.home, dataDir: t.dataDir, platform: 'linux', env: {} });
    install(p, options());
    mkdirSync(join(t.home, '.claude/skills/mine'), { recursive: true });
    writeFileSync(join(t.home, '.claude/skills/mine/SKILL.md'), 'the user’s');
    mkdirSync(join(t.home, '.config/google-chrome/NativeMessagingHosts'), { recursive: true });
    writeFileSync(join(t.home, '.config/google-chrome/NativeMessagingHosts/other.json'), '{}');
    const { sync, puts } = await messagesFor([textSkill('alpha', skillMd('alpha', 'A'))], choices(['claude-code']));
    const ctx = { allowed: true, caller: CHROME_CALLER, places: p, now: () => 0 };
    answer(Buffer.from(JSON.stringify(sync)), ctx);
    answer(Buffer.from(JSON.stringify(puts[0])), ctx);
    expect(readdirSync(join(t.home, '.claude/skills')).sort()).toEqual(['alpha', 'mine']);

    const result = uninstall(p, () => undefined);
    expect(result.removedSkills).toBe(1);
    expect(readdirSync(join(t.home, '.claude/skills'))).toEqual(['mine']);
    expect(readdirSync(join(t.home, '.config/google-chrome/NativeMessagingHosts'))).toEqual(['other.json']);
    expect(existsSync(join(t.home, '.mozilla/native-messaging-hosts/dev.skillpin.mirror.json'))).toBe(false);
    expect(existsSync(t.dataDir)).toBe(false);
  });

  it('installing twice with different profiles, then uninstalling, leaves nothing of either run', () => {
    const p = places({ home: t.home, dataDir: t.dataDir, platform: 'linux', env: {} });
    install(p, options({ chromeProfiles: [join(t.root, 'profile-a')] }));
    install(p, options({ chromeProfiles: [join(t.root, 'profile-b')] }));
    const record = JSON.parse(readFileSync(join(t.dataDir, 'install.json'), 'utf8'));
    expect(record.files).toContain(join(t.root, 'profile-a/NativeMessagingHosts/dev.skillpin.mirror.json'));
    uninstall(p, () => undefined);
    expect(existsSync(join(t.root, 'profile-a/NativeMessagingHosts/dev.skillpin.mirror.json'))).toBe(false);
    expect(existsSync(join(t.root, 'profile-b/NativeMessagingHosts/dev.skillpin.mirror.json'))).toBe(false);
    expect(existsSync(t.dataDir)).toBe(false);
  });
});
