// The desktop mirror end to end: the real host installed for a test profile (its manifest in the
// profile's NativeMessagingHosts/ for Chromium, under a test HOME for Firefox), and the
// extension's own connection manager bundled into an extension page to talk to it through the
// browser's runtime.connectNative.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as esbuild from 'esbuild';
import { z } from 'zod';
import type { MirrorableSkill } from '../../../lib/desktop/outbox';
import { skillKey } from '../../../lib/desktop/protocol/revision';
import { NO_NETWORK, SKILLPIN_BIN, type TempPlaces } from '../../support/desktop';

export { tempPlaces as desktopPlaces, type TempPlaces as DesktopPlaces } from '../../support/desktop';

/** Runs `bin/skillpin install-host` for the test folders, as a user would. */
export function installHost(p: TempPlaces, extra: string[]): string {
  return execFileSync(process.execPath, [SKILLPIN_BIN, 'install-host', '--home', p.home, '--data-dir', p.dataDir, ...extra], { encoding: 'utf8' });
}

export function uninstallHost(p: TempPlaces): string {
  return execFileSync(process.execPath, [SKILLPIN_BIN, 'uninstall-host', '--home', p.home, '--data-dir', p.dataDir], { encoding: 'utf8' });
}

let bundled: string | null = null;

/** The page script that defines `skillpinDesktop.mirror(skills, agents, confirmedUrls)`. */
export async function desktopPageScript(): Promise<string> {
  if (bundled !== null) return bundled;
  const out = await esbuild.build({
    entryPoints: [join(dirname(fileURLToPath(import.meta.url)), 'desktop-page-entry.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    target: 'es2022',
    logLevel: 'warning',
  });
  bundled = out.outputFiles[0]?.text ?? '';
  return bundled;
}

/** A skill as JSON the page script takes (bytes as base64). */
export function forPage(skill: MirrorableSkill): Record<string, unknown> {
  return { ...skill, files: skill.files.map((f) => ({ path: f.path, base64: Buffer.from(f.bytes).toString('base64') })) };
}

/** Every file under `dir` (relative path → bytes, base64), to compare folders byte for byte. */
export function treeOf(dir: string, skip: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      const rel = relative(dir, full).split('\\').join('/');
      if (skip.includes(rel)) continue;
      if (statSync(full).isDirectory()) walk(full);
      else out[rel] = readFileSync(full).toString('base64');
    }
  };
  walk(dir);
  return out;
}

/** One skill as `skillpin mcp` serves it, every file read and checked against its entry. */
export interface ServedSkill {
  uri: string;
  /** Skillpin's `_meta` facts: origin, URL, verification, key fingerprint, approval time. */
  meta: Record<string, unknown>;
  /** The bytes of each file, by its path inside the skill. */
  files: Map<string, Buffer>;
}

const sha = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/**
 * Spawns `bin/skillpin mcp` with the MCP SDK's own client over the test folders (every network call
 * of the server made to fail and show), lists the skills and reads every file of each, checking
 * each against the entry's digest and size: a file that does not match fails the call. `notServed`
 * is read too and must be refused.
 */
export async function servedSkills(p: TempPlaces, notServed: string[] = []): Promise<ServedSkill[]> {
  let stderr = '';
  const client = new Client({ name: 'skillpin-e2e', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--require', NO_NETWORK, SKILLPIN_BIN, 'mcp'],
    env: { PATH: process.env.PATH ?? '', SKILLPIN_DATA_DIR: p.dataDir, SKILLPIN_HOME: p.home },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await client.connect(transport);
  let out: ServedSkill[];
  try {
    out = await readServed(client, notServed);
  } finally {
    await client.close();
  }
  // Checked once the server has stopped, so a failure above is not hidden by this one.
  if (stderr.includes('SKILLPIN-NETWORK-ATTEMPT')) throw new Error(`the MCP server tried the network: ${stderr}`);
  return out;
}

/** Every skill the server lists, each file read and checked against its entry; `notServed` must be refused. */
async function readServed(client: Client, notServed: string[]): Promise<ServedSkill[]> {
  const list = (await client.request({ method: 'skills/list', params: {} }, z.any())) as {
    skills: { uri: string; resources: { uri: string; digest: string; size: number }[]; _meta: Record<string, unknown> }[];
  };
  const out: ServedSkill[] = [];
  for (const entry of list.skills) {
    const files = new Map<string, Buffer>();
    const root = entry.uri.slice(0, -'SKILL.md'.length);
    for (const r of entry.resources) {
      const read = await client.readResource({ uri: r.uri });
      const c = read.contents[0] as { text?: string; blob?: string };
      const bytes = typeof c.text === 'string' ? Buffer.from(c.text, 'utf8') : Buffer.from(c.blob ?? '', 'base64');
      if (bytes.length !== r.size || sha(bytes) !== r.digest) throw new Error(`${r.uri} does not match its entry`);
      files.set(r.uri.slice(root.length), bytes);
    }
    out.push({ uri: entry.uri, meta: entry._meta, files });
  }
  for (const uri of notServed) {
    const refused = await client.readResource({ uri }).then(
      () => false,
      (e: { code?: number }) => e.code === -32602,
    );
    if (!refused) throw new Error(`${uri} was served`);
  }
  return out;
}

/** Flips one bit of a file of a skill in the mirror on disk (of the one browser partition there). */
export function spoilMirroredFile(p: TempPlaces, skill: { origin: string; url: string }, path: string): void {
  const mirror = join(p.dataDir, 'mirror');
  const partitions = readdirSync(mirror).filter((n) => /^[0-9a-f]{16}$/.test(n));
  if (partitions.length !== 1) throw new Error(`expected one browser in the mirror, found ${partitions.length}`);
  const file = join(mirror, partitions[0] as string, skillKey(skill), 'files', ...path.split('/'));
  const bytes = readFileSync(file);
  bytes[bytes.length - 2] = (bytes[bytes.length - 2] as number) ^ 0x01;
  writeFileSync(file, bytes);
}
