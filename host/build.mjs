// @ts-check
// Bundles the host program (host/main.ts and the lib/ modules it imports, with its packages)
// into one ES module, .output/host/skillpin.mjs, with esbuild. Nothing built is committed:
// bin/skillpin builds on first use and again whenever a source file is newer than the bundle.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE = join(ROOT, '.output', 'host', 'skillpin.mjs');
const META = join(ROOT, '.output', 'host', 'inputs.json');

/** True when the bundle is missing or older than any file it was built from (or the lock file). */
export function stale() {
  if (!existsSync(BUNDLE) || !existsSync(META)) return true;
  const built = statSync(BUNDLE).mtimeMs;
  /** @type {string[]} */
  const inputs = JSON.parse(readFileSync(META, 'utf8'));
  return [...inputs, 'package-lock.json'].some((rel) => {
    try {
      return statSync(join(ROOT, rel)).mtimeMs > built;
    } catch {
      return true;
    }
  });
}

/** Builds the bundle (written to a temporary name, then renamed, so a concurrent reader never sees half of it). */
export async function build() {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, 'host', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    // Bundled CommonJS packages call require(); give the module one.
    banner: { js: "import { createRequire as __skillpinRequire } from 'node:module'; const require = __skillpinRequire(import.meta.url);" },
  });
  const out = result.outputFiles[0];
  if (out === undefined) throw new Error('esbuild produced no output');
  mkdirSync(dirname(BUNDLE), { recursive: true });
  const temp = `${BUNDLE}.${process.pid}.tmp`;
  writeFileSync(temp, out.contents);
  writeFileSync(`${META}.${process.pid}.tmp`, JSON.stringify(Object.keys(result.metafile.inputs).filter((p) => !p.startsWith('node_modules/'))));
  renameSync(`${META}.${process.pid}.tmp`, META);
  renameSync(temp, BUNDLE);
  return BUNDLE;
}

/** The bundle's path, built first when stale. */
export async function ensureBuilt() {
  if (stale()) await build();
  return BUNDLE;
}
