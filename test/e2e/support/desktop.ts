// The desktop mirror end to end: the real host installed for a test profile (its manifest in the
// profile's NativeMessagingHosts/ for Chromium, under a test HOME for Firefox), and the
// extension's own connection manager bundled into an extension page to talk to it through the
// browser's runtime.connectNative.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import type { MirrorableSkill } from '../../../lib/desktop/outbox';
import { SKILLPIN_BIN, type TempPlaces } from '../../support/desktop';

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
  const out = await esbuild.build({ entryPoints: [join(dirname(fileURLToPath(import.meta.url)), 'desktop-page-entry.ts')], bundle: true, format: 'iife', platform: 'browser', write: false, target: 'es2022', logLevel: 'warning' });
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
