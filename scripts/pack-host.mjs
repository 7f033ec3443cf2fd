#!/usr/bin/env node
// @ts-check
// Builds the desktop program as a package of its own (docs/desktop.md, section 5.3): the esbuild
// bundle of host/main.ts, a small launcher and a package.json whose `bin` is `skillpin`, with no
// dependency and no build step, in .output/skillpin-package/, then packs it with `npm pack` into
// .output/skillpin-<version>.tgz. Prints the packed file's path.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../host/build.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, '.output');
const PKG = join(OUT, 'skillpin-package');

/** The version, read from the one place it is kept (lib/desktop/protocol/limits.ts HOST_PACKAGE_VERSION). */
function version() {
  const m = /HOST_PACKAGE_VERSION = '(\d+\.\d+\.\d+)'/.exec(readFileSync(join(ROOT, 'lib', 'desktop', 'protocol', 'limits.ts'), 'utf8'));
  if (!m?.[1]) throw new Error('HOST_PACKAGE_VERSION not found in lib/desktop/protocol/limits.ts');
  return m[1];
}

// The launcher imports the bundle and runs it; its name does not end in skillpin.mjs, so the bundle
// does not also run itself (host/main.ts).
const LAUNCHER = `#!/usr/bin/env node
// skillpin: the desktop side of Skillpin, prebuilt (docs/desktop.md in Skillpin's source).
import { main } from '../dist/skillpin.mjs';

const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
`;

/** @param {string} v */
const README = (v) => `# skillpin ${v}

The desktop program of Skillpin, the browser extension that verifies Agent Skills published by web sites.
It keeps the skills you approved in the extension for your desktop agents: a native-messaging host for
Chrome, Chromium, Edge, Brave, Vivaldi and Firefox, a mirror on disk, copies in the agents' skill folders, and an MCP server.

    npx skillpin@${v} install-host --chrome-id <the id chrome://extensions shows for Skillpin>
    skillpin doctor
    skillpin mcp
    skillpin uninstall-host

It needs Node.js 22 or later, makes no network request, and has no dependencies.
`;

export async function packHost() {
  const v = version();
  const bundle = await build();
  rmSync(PKG, { recursive: true, force: true });
  mkdirSync(join(PKG, 'dist'), { recursive: true });
  mkdirSync(join(PKG, 'bin'), { recursive: true });
  copyFileSync(bundle, join(PKG, 'dist', 'skillpin.mjs'));
  writeFileSync(join(PKG, 'bin', 'skillpin.js'), LAUNCHER, { mode: 0o755 });
  writeFileSync(join(PKG, 'README.md'), README(v));
  copyFileSync(join(ROOT, 'LICENSE'), join(PKG, 'LICENSE'));
  const pkg = {
    name: 'skillpin',
    version: v,
    description: "Skillpin's desktop program: hands the Agent Skills you approved in the browser to your desktop agents (native messaging, agent folders, MCP).",
    type: 'module',
    bin: { skillpin: 'bin/skillpin.js' },
    files: ['bin', 'dist', 'README.md', 'LICENSE'],
    engines: { node: '>=22' },
    license: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).license ?? 'UNLICENSED',
  };
  writeFileSync(join(PKG, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const out = execFileSync('npm', ['pack', '--pack-destination', OUT, '--silent'], { cwd: PKG, encoding: 'utf8', env: { ...process.env, npm_config_offline: 'true' } });
  const file = out.trim().split('\n').at(-1) ?? '';
  return join(OUT, file);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await packHost()}\n`);
}
