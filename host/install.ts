// `skillpin install-host` and `uninstall-host` (docs/desktop.md): the program copied into the
// data folder, a launcher the browsers start, the native-messaging manifests (allowed only for
// Skillpin's extension ids) in every place Chrome, Chromium and Firefox read them, and on
// Windows the registry keys that point at them. install.json records every file written, so
// uninstall removes exactly those, then every agent copy and the mirror.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FIREFOX_EXTENSION_ID, NATIVE_HOST_NAME } from '../lib/desktop/limits';
import { writeFileAtomic } from './atomic';
import { removeSkill } from './handlers';
import { withLock } from './lock';
import { Mirror, partitionOfRecord } from './mirror';
import { sweepUnlisted } from './sweep';
import { installFile, mirrorDir, type Places } from './places';

export interface InstallOptions {
  chromeIds: string[];
  /** More Chromium user-data folders (e.g. a test profile) whose NativeMessagingHosts/ gets the manifest. */
  chromeProfiles: string[];
  /** The bundled program (`skillpin.mjs`) to copy, and the node that runs it. */
  program: string;
  node: string;
  /** Environment the launcher sets (the data folder and home when they were overridden). */
  env: Record<string, string>;
  /** Runs a command (the Windows registry); injected so tests see what would run. */
  run(command: string, args: string[]): void;
}

export interface InstallRecord {
  format: 1;
  chromeIds: string[];
  firefoxIds: string[];
  files: string[];
  registry: string[];
}

const CHROME_ID = /^[a-p]{32}$/;

export function chromeManifestDirs(p: Places, profiles: string[]): string[] {
  const dirs = profiles.map((d) => join(d, 'NativeMessagingHosts'));
  if (p.platform === 'darwin') {
    const base = join(p.home, 'Library', 'Application Support');
    dirs.push(join(base, 'Google', 'Chrome', 'NativeMessagingHosts'), join(base, 'Chromium', 'NativeMessagingHosts'));
  } else if (p.platform !== 'win32') {
    const config = join(p.home, '.config');
    dirs.push(join(config, 'google-chrome', 'NativeMessagingHosts'), join(config, 'chromium', 'NativeMessagingHosts'));
  }
  return dirs;
}

export function firefoxManifestDir(p: Places): string | null {
  if (p.platform === 'darwin') return join(p.home, 'Library', 'Application Support', 'Mozilla', 'NativeMessagingHosts');
  if (p.platform === 'win32') return null;
  return join(p.home, '.mozilla', 'native-messaging-hosts');
}

/** The registry keys (per user) whose default value names the manifest, on Windows. */
export const REGISTRY_KEYS = {
  chrome: [`HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`, `HKCU\\Software\\Chromium\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`],
  firefox: [`HKCU\\Software\\Mozilla\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`],
};

/**
 * Where a Node.js is commonly found when the one that ran install-host is gone (upgraded by Homebrew,
 * switched by nvm or Volta): the newest nvm one, Volta's shim, Homebrew's, the system's.
 */
const FALLBACK_NODES = '$(ls -d "$HOME"/.nvm/versions/node/*/bin/node 2>/dev/null | sort -V | tail -n 1) "$HOME/.volta/bin/node" /opt/homebrew/bin/node /usr/local/bin/node /usr/bin/node';

const quoteSh = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

function launcherText(p: Places, program: string, o: InstallOptions, command = 'native-host'): string {
  if (p.platform === 'win32') {
    const sets = Object.entries(o.env)
      .map(([k, v]) => `set "${k}=${v}"\r\n`)
      .join('');
    return `@echo off\r\nrem Written by skillpin install-host; removed by skillpin uninstall-host.\r\n${sets}if exist "${o.node}" (\r\n  "${o.node}" "${program}" native-host %*\r\n) else (\r\n  node "${program}" native-host %*\r\n)\r\n`;
  }
  const sets = Object.entries(o.env)
    .map(([k, v]) => `${k}=${quoteSh(v)}; export ${k}\n`)
    .join('');
  return [
    '#!/bin/sh',
    '# Written by skillpin install-host; removed by skillpin uninstall-host.',
    `${sets}SKILLPIN_NODE=${quoteSh(o.node)}`,
    '# The Node.js that ran install-host, else one found now: a version manager or an upgrade may have moved it.',
    `for n in "$SKILLPIN_NODE" "$(command -v node 2>/dev/null)" ${FALLBACK_NODES}; do`,
    `  if [ -n "$n" ] && [ -x "$n" ]; then exec "$n" ${quoteSh(program)}${command === '' ? '' : ` ${command}`} "$@"; fi`,
    'done',
    `echo "skillpin: no Node.js found (tried $SKILLPIN_NODE, node on PATH and the usual places). Install Node.js 20 or later, then run: skillpin doctor" >&2`,
    'exit 127',
    '',
  ].join('\n');
}

const json = (v: unknown): Buffer => Buffer.from(`${JSON.stringify(v, null, 2)}\n`);

export function install(p: Places, o: InstallOptions): { record: InstallRecord; notes: string[] } {
  for (const id of o.chromeIds) if (!CHROME_ID.test(id)) throw new Error(`"${id}" is not a Chrome extension id (32 letters a to p).`);
  const notes: string[] = [];
  const files: string[] = [];
  const registry: string[] = [];
  const binDir = join(p.dataDir, 'bin');
  mkdirSync(binDir, { recursive: true, mode: 0o700 });
  const program = join(binDir, 'skillpin.mjs');
  copyFileSync(o.program, program);
  files.push(program);
  const launcher = join(binDir, p.platform === 'win32' ? 'skillpin-native-host.cmd' : 'skillpin-native-host');
  writeFileAtomic(launcher, Buffer.from(launcherText(p, program, o)), 0o700);
  if (p.platform !== 'win32') chmodSync(launcher, 0o700);
  files.push(launcher);
  if (p.platform !== 'win32') {
    // The command MCP clients start (`<data>/bin/skillpin mcp`): it finds a Node.js the same way.
    const general = join(binDir, 'skillpin');
    writeFileAtomic(general, Buffer.from(launcherText(p, program, o, '')), 0o700);
    chmodSync(general, 0o700);
    files.push(general);
  }
  const base = { name: NATIVE_HOST_NAME, description: 'Skillpin: keeps the skills you approved in the browser for your desktop agents', path: launcher, type: 'stdio' };
  const write = (path: string, value: unknown): void => {
    writeFileAtomic(path, json(value), 0o644);
    files.push(path);
  };
  if (o.chromeIds.length > 0) {
    const manifest = { ...base, allowed_origins: o.chromeIds.map((id) => `chrome-extension://${id}/`) };
    for (const dir of chromeManifestDirs(p, o.chromeProfiles)) write(join(dir, `${NATIVE_HOST_NAME}.json`), manifest);
    if (p.platform === 'win32') {
      const path = join(p.dataDir, 'manifests', 'chrome.json');
      write(path, manifest);
      for (const key of REGISTRY_KEYS.chrome) registry.push(key), o.run('reg', ['add', key, '/ve', '/t', 'REG_SZ', '/d', path, '/f']);
    }
  } else notes.push('No Chrome extension id was given (--chrome-id), so no Chrome or Chromium manifest was written.');
  const firefox = { ...base, allowed_extensions: [FIREFOX_EXTENSION_ID] };
  const ffDir = firefoxManifestDir(p);
  if (ffDir !== null) write(join(ffDir, `${NATIVE_HOST_NAME}.json`), firefox);
  else {
    const path = join(p.dataDir, 'manifests', 'firefox.json');
    write(path, firefox);
    for (const key of REGISTRY_KEYS.firefox) registry.push(key), o.run('reg', ['add', key, '/ve', '/t', 'REG_SZ', '/d', path, '/f']);
  }
  // Every file and key an earlier run wrote stays listed, so uninstall removes what each run left.
  const before = readInstallRecord(p);
  const union = (earlier: string[] | undefined, now: string[]): string[] => [...new Set([...(earlier ?? []), ...now])];
  const record: InstallRecord = { format: 1, chromeIds: o.chromeIds, firefoxIds: [FIREFOX_EXTENSION_ID], files: union(before?.files, files), registry: union(before?.registry, registry) };
  writeFileAtomic(installFile(p), json(record), 0o600);
  return { record, notes };
}

/**
 * The configuration an MCP client needs to start the server, in both common shapes: the installed
 * launcher `<data>/bin/skillpin mcp`, which finds a Node.js at run time (on Windows, `node` itself).
 */
export function mcpConfig(p: Places, node: string, env: Record<string, string>): { mcpServers: unknown; vscode: unknown } {
  const bin = join(p.dataDir, 'bin');
  const start = p.platform === 'win32' ? { command: node, args: [join(bin, 'skillpin.mjs'), 'mcp'] } : { command: join(bin, 'skillpin'), args: ['mcp'] };
  const server = { ...start, ...(Object.keys(env).length > 0 ? { env } : {}) };
  return { mcpServers: { mcpServers: { skillpin: server } }, vscode: { servers: { skillpin: { type: 'stdio', ...server } } } };
}

export function readInstallRecord(p: Places): InstallRecord | null {
  try {
    const v = JSON.parse(readFileSync(installFile(p), 'utf8')) as InstallRecord;
    return v.format === 1 && Array.isArray(v.files) ? v : null;
  } catch {
    return null;
  }
}

/**
 * Removes every agent copy and the mirror (as a sync naming nothing would), then what install
 * wrote. Holds the mirror's lock throughout, and removes install.json first: a host process that
 * waited for the lock then finds its installation gone and writes nothing.
 */
export function uninstall(p: Places, run: (command: string, args: string[]) => void): { removedFiles: string[]; removedSkills: number } {
  const mirror = new Mirror(mirrorDir(p));
  return withLock(mirror.root, () => {
    const record = readInstallRecord(p);
    rmSync(installFile(p), { force: true });
    const removedSkills = removeMirror(p, mirror);
    return { removedFiles: removeInstalled(p, record, run), removedSkills };
  });
}

/** Every skill of every browser profile with its agent copies, then copies no record names, then the mirror folder. */
function removeMirror(p: Places, mirror: Mirror): number {
  const records = mirror.records();
  const partitions = new Set([...mirror.partitions(), ...records.flatMap((r) => (r.formerPartition !== undefined ? [r.formerPartition] : []))]);
  for (const record of records) {
    const partition = partitionOfRecord(record);
    removeSkill({ places: p, mirror, caller: record.caller, profile: record.profile ?? null, partition, now: () => Date.now() }, record);
  }
  sweepUnlisted(p, partitions, []);
  rmSync(mirror.root, { recursive: true, force: true });
  return records.length;
}

function removeInstalled(p: Places, record: InstallRecord | null, run: (command: string, args: string[]) => void): string[] {
  const removedFiles: string[] = [];
  for (const file of record?.files ?? []) {
    if (!existsSync(file)) continue;
    rmSync(file, { force: true });
    removedFiles.push(file);
    // Only folders inside the data folder are removed; the browsers' own folders stay.
    if (dirname(file).startsWith(p.dataDir)) {
      try {
        rmdirSync(dirname(file));
      } catch {
        // The folder holds other files.
      }
    }
  }
  for (const key of record?.registry ?? []) run('reg', ['delete', key, '/f']);
  try {
    rmdirSync(p.dataDir);
  } catch {
    // Not empty or already gone.
  }
  return removedFiles;
}
