// `skillpin install-host` and `uninstall-host` (docs/desktop.md): the program copied into the
// data folder, a launcher the browsers start, the native-messaging manifests (allowed only for
// Skillpin's extension ids) in every place the browser table (lib/desktop/protocol/browser-places.ts) names
// for a browser on this computer, and on Windows every registry key of the table pointing at them.
// install.json records every file, key and folder written, so uninstall removes exactly those, then
// every agent copy and the mirror.
import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { BrowserFamily } from '../lib/desktop/protocol/browser-places';
import { FIREFOX_EXTENSION_ID, NATIVE_HOST_NAME } from '../lib/desktop/protocol/limits';
import { readJson, removeIfEmpty, writeFileAtomic } from './atomic';
import { sweepUnlisted } from './agents';
import { removeSkill } from './handlers';
import { withLock } from './lock';
import { formerPartitions, Mirror, partitionOfRecord } from './mirror';
import { installFile, MANIFEST_FILE, manifestPlaces, mirrorDir, type Places, registryPlaces } from './places';

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
  /** Folders made for a manifest outside the data folder, removed when empty (absent from records an earlier program wrote). */
  folders?: string[];
}

const CHROME_ID = /^[a-p]{32}$/;

/**
 * Where a Node.js is commonly found when the one that ran install-host is gone (upgraded by Homebrew,
 * switched by nvm or Volta): the newest nvm one, Volta's shim, Homebrew's, the system's.
 */
const FALLBACK_NODES = '$(ls -d "$HOME"/.nvm/versions/node/*/bin/node 2>/dev/null | sort -V | tail -n 1) "$HOME/.volta/bin/node" /opt/homebrew/bin/node /usr/local/bin/node /usr/bin/node';

/** A word for sh, quoted so that nothing in it is read by the shell. */
export const quoteSh = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

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
    `echo "skillpin: no Node.js found (tried $SKILLPIN_NODE, node on PATH and the usual places). Install Node.js 22 or later, then run: skillpin doctor" >&2`,
    'exit 127',
    '',
  ].join('\n');
}

const json = (v: unknown): Buffer => Buffer.from(`${JSON.stringify(v, null, 2)}\n`);

/** A browser install-host registered with: the manifest it wrote, or on Windows the registry key. */
export interface Registration {
  browser: string;
  family: BrowserFamily;
  at: string;
}

/** What one install-host run wrote, as it goes (folders: those outside the data folder that did not exist before, made for a manifest). */
type Written = Required<Pick<InstallRecord, 'files' | 'registry' | 'folders'>>;

/** The folders from `dir` up to (not including) `stop` that are not there yet, deepest first. */
function missingFolders(dir: string, stop: string): string[] {
  const out: string[] = [];
  for (let d = dir; d.startsWith(`${stop}${sep}`) && !existsSync(d); d = dirname(d)) out.push(d);
  return out;
}

function writeManifests(p: Places, o: InstallOptions, launcher: string, w: Written): Registration[] {
  const base = { name: NATIVE_HOST_NAME, description: 'Skillpin: keeps the skills you approved in the browser for your desktop agents', path: launcher, type: 'stdio' };
  const registered: Registration[] = [];
  const put = (browser: string, family: BrowserFamily, path: string, manifest: unknown, stop: string): void => {
    w.folders.push(...missingFolders(dirname(path), stop));
    writeFileAtomic(path, json(manifest), 0o644);
    w.files.push(path);
    registered.push({ browser, family, at: path });
  };
  const byFamily: [BrowserFamily, unknown][] = [['firefox', { ...base, allowed_extensions: [FIREFOX_EXTENSION_ID] }]];
  if (o.chromeIds.length > 0) byFamily.unshift(['chromium', { ...base, allowed_origins: o.chromeIds.map((id) => `chrome-extension://${id}/`) }]);
  for (const [family, manifest] of byFamily) {
    if (family === 'chromium') for (const profile of o.chromeProfiles) put(`Chrome profile ${profile}`, family, join(profile, 'NativeMessagingHosts', MANIFEST_FILE), manifest, dirname(profile));
    for (const place of manifestPlaces(p)) if (place.family === family && place.written) put(place.browser, family, join(place.dir, MANIFEST_FILE), manifest, p.home);
    if (p.platform !== 'win32') continue;
    const path = join(p.dataDir, 'manifests', family === 'chromium' ? 'chrome.json' : 'firefox.json');
    writeFileAtomic(path, json(manifest), 0o644);
    w.files.push(path);
    for (const { browser, key } of registryPlaces(family)) {
      w.registry.push(key);
      o.run('reg', ['add', key, '/ve', '/t', 'REG_SZ', '/d', path, '/f']);
      registered.push({ browser, family, at: key });
    }
  }
  return registered;
}

/** The program and the launchers in `<data>/bin`; returns the launcher the browsers start. */
function writeProgram(p: Places, o: InstallOptions, w: Written): string {
  const binDir = join(p.dataDir, 'bin');
  mkdirSync(binDir, { recursive: true, mode: 0o700 });
  const program = join(binDir, 'skillpin.mjs');
  copyFileSync(o.program, program);
  w.files.push(program);
  const writeLauncher = (path: string, command?: string): void => {
    writeFileAtomic(path, Buffer.from(launcherText(p, program, o, command)), 0o700);
    if (p.platform !== 'win32') chmodSync(path, 0o700);
    w.files.push(path);
  };
  const launcher = join(binDir, p.platform === 'win32' ? 'skillpin-native-host.cmd' : 'skillpin-native-host');
  writeLauncher(launcher);
  // The command MCP clients start (`<data>/bin/skillpin mcp`): it finds a Node.js the same way.
  if (p.platform !== 'win32') writeLauncher(join(binDir, 'skillpin'), '');
  return launcher;
}

export function install(p: Places, o: InstallOptions): { record: InstallRecord; notes: string[]; registered: Registration[] } {
  for (const id of o.chromeIds) if (!CHROME_ID.test(id)) throw new Error(`"${id}" is not a Chrome extension id (32 letters a to p).`);
  const notes: string[] = [];
  const w: Written = { files: [], registry: [], folders: [] };
  const registered = writeManifests(p, o, writeProgram(p, o, w), w);
  if (o.chromeIds.length === 0) notes.push('No Chrome extension id was given (--chrome-id), so no manifest for Chrome or another Chromium-family browser was written.');
  // Every file, key and folder an earlier run wrote stays listed, so uninstall removes what each run left.
  const before = readInstallRecord(p);
  const union = (earlier: string[] | undefined, now: string[]): string[] => [...new Set([...(earlier ?? []), ...now])];
  const record: InstallRecord = {
    format: 1,
    chromeIds: o.chromeIds,
    firefoxIds: [FIREFOX_EXTENSION_ID],
    files: union(before?.files, w.files),
    registry: union(before?.registry, w.registry),
    folders: union(before?.folders, w.folders),
  };
  writeFileAtomic(installFile(p), json(record), 0o600);
  return { record, notes, registered };
}

/** The configuration in both common shapes: "mcpServers" (Claude Desktop, Claude Code, Cursor) and "servers" (VS Code). */
export type McpConfig = ReturnType<typeof mcpConfig>;

/**
 * The configuration an MCP client needs to start the server, in both common shapes: the installed
 * launcher `<data>/bin/skillpin mcp`, which finds a Node.js at run time (on Windows, `node` itself).
 */
export function mcpConfig(p: Places, node: string, env: Record<string, string>) {
  const bin = join(p.dataDir, 'bin');
  const start = p.platform === 'win32' ? { command: node, args: [join(bin, 'skillpin.mjs'), 'mcp'] } : { command: join(bin, 'skillpin'), args: ['mcp'] };
  const server = { ...start, ...(Object.keys(env).length > 0 ? { env } : {}) };
  return { mcpServers: { mcpServers: { skillpin: server } }, vscode: { servers: { skillpin: { type: 'stdio' as const, ...server } } } };
}

export function readInstallRecord(p: Places): InstallRecord | null {
  const v = readJson(installFile(p)) as InstallRecord | null;
  return v?.format === 1 && Array.isArray(v.files) ? v : null;
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
  const partitions = new Set([...mirror.partitions(), ...formerPartitions(records)]);
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
    if (dirname(file).startsWith(p.dataDir)) removeIfEmpty(dirname(file));
  }
  for (const key of record?.registry ?? []) run('reg', ['delete', key, '/f']);
  // Folders install-host made for a manifest go when nothing else came to live in them, deepest first.
  for (const folder of [...(record?.folders ?? [])].sort((a, b) => b.length - a.length)) removeIfEmpty(folder);
  removeIfEmpty(p.dataDir);
  return removedFiles;
}
