// The desktop program installed without a clone: scripts/pack-host.mjs builds the package, which is
// installed from the packed file into a fresh prefix with no network (npm --offline, an empty cache),
// then run: --version, install-host over a temporary home, doctor. The launcher the browsers start
// still finds a Node.js when the one install-host recorded is gone.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../host/doctor';
import { encodeFrame } from '../../../host/framing';
import { HOST_VERSION } from '../../../host/version';
import { CHROME_ID, NO_NETWORK, REPO_ROOT, type TempPlaces, tempPlaces } from '../../support/desktop';

let t: TempPlaces;
let skillpin: string;
const env = () => ({ PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, NODE_OPTIONS: `--require ${NO_NETWORK}` });
const where = () => ['--home', t.home, '--data-dir', t.dataDir];

beforeAll(() => {
  t = tempPlaces();
  const tgz = execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'pack-host.mjs')], { encoding: 'utf8' }).trim();
  expect(tgz).toMatch(new RegExp(`skillpin-${HOST_VERSION.replace(/\./g, '\\.')}\\.tgz$`));
  const prefix = join(t.root, 'prefix');
  const npm = spawnSync('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tgz], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: t.root, npm_config_cache: join(t.root, 'npm-cache'), npm_config_registry: 'http://127.0.0.1:9/' },
  });
  expect(npm.status, npm.stderr).toBe(0);
  skillpin = join(prefix, 'bin', 'skillpin');
}, 180_000);
afterAll(() => t.cleanup());

describe('the packed program', () => {
  it('has no dependencies, and runs --version from the fresh prefix', () => {
    const pkg = JSON.parse(readFileSync(join(dirname(dirname(skillpin)), 'lib', 'node_modules', 'skillpin', 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: 'skillpin', version: HOST_VERSION, bin: { skillpin: 'bin/skillpin.js' }, engines: { node: '>=22' } });
    expect(pkg.dependencies).toBeUndefined();
    const out = spawnSync(skillpin, ['--version'], { encoding: 'utf8', env: env() });
    expect(out.stdout).toBe(`skillpin ${HOST_VERSION}\n`);
    expect(out.stderr).not.toContain('SKILLPIN-NETWORK-ATTEMPT');
  });

  it('install-host writes the manifests and the launcher; doctor finds nothing wrong and names the npx command', () => {
    const out = spawnSync(skillpin, ['install-host', '--chrome-id', CHROME_ID, ...where()], { encoding: 'utf8', env: env() });
    expect(out.status, out.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(t.home, '.config/google-chrome/NativeMessagingHosts/dev.skillpin.mirror.json'), 'utf8'));
    expect(manifest.path).toBe(join(t.dataDir, 'bin', 'skillpin-native-host'));
    const doctor = spawnSync(skillpin, ['doctor', '--json', ...where()], { encoding: 'utf8', env: env() });
    const report = JSON.parse(doctor.stdout) as DoctorReport;
    expect(report.problems).toEqual([]);
    expect(report.installed).toMatchObject({ version: HOST_VERSION, nodeWorks: true });
  });

  it('the launcher still starts the host when the recorded Node.js is gone; doctor says what to run', async () => {
    const launcher = join(t.dataDir, 'bin', 'skillpin-native-host');
    writeFileSync(launcher, readFileSync(launcher, 'utf8').replace(/^SKILLPIN_NODE='[^']*'/m, "SKILLPIN_NODE='/nonexistent/node-18/bin/node'"));
    const child = spawn(launcher, [`chrome-extension://${CHROME_ID}/`], { env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    const reply = new Promise<Record<string, unknown>>((resolve, reject) => {
      let buf = Buffer.alloc(0);
      child.stdout.on('data', (chunk: Buffer) => {
        buf = Buffer.concat([buf, chunk]);
        if (buf.length >= 4 && buf.length >= 4 + buf.readUInt32LE(0)) resolve(JSON.parse(buf.subarray(4, 4 + buf.readUInt32LE(0)).toString('utf8')));
      });
      child.on('exit', (code) => reject(new Error(`launcher exited ${code}`)));
    });
    child.stdin.write(encodeFrame({ type: 'hello', id: 1, protocol: 1 }) ?? Buffer.alloc(0));
    expect(await reply).toMatchObject({ type: 'hello', version: HOST_VERSION });
    child.kill();
    // The command MCP clients start finds one the same way.
    const general = join(t.dataDir, 'bin', 'skillpin');
    writeFileSync(general, readFileSync(general, 'utf8').replace(/^SKILLPIN_NODE='[^']*'/m, "SKILLPIN_NODE='/nonexistent/node-18/bin/node'"));
    expect(spawnSync(general, ['--version'], { encoding: 'utf8', env: env() }).stdout).toBe(`skillpin ${HOST_VERSION}\n`);
    const doctor = JSON.parse(spawnSync(skillpin, ['doctor', '--json', ...where()], { encoding: 'utf8', env: env() }).stdout) as DoctorReport;
    expect(doctor.mcp.mcpServers).toMatchObject({ mcpServers: { skillpin: { command: general, args: ['mcp'] } } });
    expect(doctor.installed).toMatchObject({ node: '/nonexistent/node-18/bin/node', nodeWorks: false });
    expect(doctor.problems.join('\n')).toContain(`run: npx skillpin@${HOST_VERSION} install-host --chrome-id ${CHROME_ID}`);
  });
});
