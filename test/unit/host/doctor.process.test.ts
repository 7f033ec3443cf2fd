// `skillpin doctor` through the real program over a temporary home: installed with install-host,
// two skills handed over to two agent folders, then the report as JSON and in plain words; a
// manifest whose program was removed is named with the command that repairs it.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../host/doctor';
import { answer } from '../../../host/native-host';
import { places as makePlaces } from '../../../host/places';
import { HOST_VERSION } from '../../../host/version';
import { MIN_HOST_VERSION } from '../../../lib/desktop/protocol/limits';
import { CHROME_CALLER, CHROME_ID, choices, messagesFor, NO_NETWORK, SKILLPIN_BIN, skillMd, type TempPlaces, tempPlaces, textSkill } from '../../support/desktop';

let t: TempPlaces;
const alpha = textSkill('alpha', skillMd('alpha', 'First'));
const beta = textSkill('beta', skillMd('beta', 'Second'), { origin: 'https://beta.example', url: 'https://beta.example/beta/SKILL.md' });
const where = () => ['--home', t.home, '--data-dir', t.dataDir];
const run = (args: string[]) => spawnSync(process.execPath, ['--require', NO_NETWORK, SKILLPIN_BIN, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });

beforeAll(async () => {
  t = tempPlaces();
  execFileSync(process.execPath, [SKILLPIN_BIN, 'install-host', '--chrome-id', CHROME_ID, ...where()], { env: { PATH: process.env.PATH ?? '' } });
  mkdirSync(join(t.home, '.cursor'), { recursive: true });
  const ctx = { allowed: true, caller: CHROME_CALLER, places: makePlaces({ home: t.home, dataDir: t.dataDir }), now: () => Date.now() };
  const { sync, puts } = await messagesFor([alpha, beta], choices(['claude-code', 'agents']));
  const profile = 'a'.repeat(32);
  answer(Buffer.from(JSON.stringify({ ...sync, profile })), ctx);
  for (const put of puts) expect(answer(Buffer.from(JSON.stringify({ ...put, profile })), ctx)).toMatchObject({ type: 'stored' });
}, 120_000);
afterAll(() => t.cleanup());

describe('skillpin doctor', () => {
  it('--json: version, installed program, mirror per profile, agent folders with who sees them, manifests, MCP configuration', () => {
    const out = run(['doctor', '--json', ...where()]);
    expect(out.stderr).not.toContain('SKILLPIN-NETWORK-ATTEMPT');
    expect(out.status).toBe(0);
    const r = JSON.parse(out.stdout) as DoctorReport;
    expect(r).toMatchObject({ version: HOST_VERSION, minVersion: MIN_HOST_VERSION, problems: [] });
    expect(r.installed).toMatchObject({ present: true, version: HOST_VERSION, launcherPresent: true, node: process.execPath, nodeWorks: true });
    expect(r.profiles).toEqual([
      expect.objectContaining({
        caller: CHROME_CALLER,
        profile: 'a'.repeat(32),
        skills: expect.arrayContaining([expect.objectContaining({ name: 'alpha' }), expect.objectContaining({ name: 'beta' })]),
      }),
    ]);
    const claude = r.folders.find((f) => f.folder === 'claude-code');
    expect(claude).toMatchObject({ path: join(t.home, '.claude', 'skills'), seenBy: ['claude-code', 'copilot', 'opencode', 'cursor'] });
    expect(claude?.copies.map((c) => c.name).sort()).toEqual(['alpha', 'beta']);
    expect(r.folders.find((f) => f.folder === 'gemini-cli')?.copies).toEqual([]);
    // The agent folders made by the copies, and Cursor's own folder.
    expect(r.agentsFound).toEqual(['claude-code', 'cursor']);
    const chrome = r.manifests.find((m) => m.path === join(t.home, '.config/google-chrome/NativeMessagingHosts/dev.skillpin.mirror.json'));
    expect(chrome).toMatchObject({ browser: 'chrome', name: 'Google Chrome', present: true, expected: true, pointsExists: true, allowed: [CHROME_CALLER] });
    expect(r.manifests.find((m) => m.browser === 'firefox')).toMatchObject({ name: 'Firefox', present: true, pointsExists: true, allowed: ['skillpin@skillpin.dev'] });
    expect(r.manifests.map((m) => m.name)).toEqual(['Google Chrome', 'Chromium', 'Firefox']);
    expect(r.mcp.mcpServers).toEqual({
      mcpServers: { skillpin: { command: join(t.dataDir, 'bin', 'skillpin'), args: ['mcp'], env: { SKILLPIN_HOME: t.home, SKILLPIN_DATA_DIR: t.dataDir } } },
    });
  });

  it('in plain words', () => {
    const out = run(['doctor', ...where()]);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain(`skillpin ${HOST_VERSION}; the extension needs ${MIN_HOST_VERSION} or later.`);
    expect(out.stdout).toContain(`${join(t.home, '.claude', 'skills')} (seen by Claude Code, GitHub Copilot, OpenCode, Cursor): alpha from https://skills.example, beta from https://beta.example`);
    expect(out.stdout).toContain('Agents found on this computer: Claude Code, Cursor.');
    expect(out.stdout).toContain('"mcpServers"');
    expect(out.stdout).toContain('No problem found.');
  });

  it('a manifest whose program is gone is named, with the command that repairs it; exit status 1', () => {
    rmSync(join(t.dataDir, 'bin', 'skillpin-native-host'));
    const out = run(['doctor', '--json', ...where()]);
    expect(out.status).toBe(1);
    const r = JSON.parse(out.stdout) as DoctorReport;
    expect(r.problems).toContain(
      `${join(t.home, '.config/google-chrome/NativeMessagingHosts/dev.skillpin.mirror.json')} points at ${join(t.dataDir, 'bin', 'skillpin-native-host')}, which is not there. Run: bin/skillpin install-host --chrome-id ${CHROME_ID}`,
    );
  });

  it('on a computer where nothing is installed it says what to run', () => {
    const empty = tempPlaces();
    try {
      const out = run(['doctor', '--home', empty.home, '--data-dir', empty.dataDir]);
      expect(out.status).toBe(1);
      expect(out.stdout).toContain('Installed: no');
      expect(out.stdout).toContain('The program is not installed for any browser. Run: bin/skillpin install-host');
    } finally {
      empty.cleanup();
    }
  });
});
