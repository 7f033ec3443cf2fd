// The floor the browser sets: an extension with Skillpin's exact permissions and host access
// (read from the bench build's manifest) and a service worker that does nothing and listens to
// nothing. What Chromium costs a page for any such extension (its network hooks for webRequest and
// declarativeNetRequest, its host access) is in this floor; what is over it is Skillpin's own.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_EXTENSION_DIR } from './browser';

interface Manifest {
  version: string;
  permissions?: string[];
  optional_permissions?: string[];
  host_permissions?: string[];
  minimum_chrome_version?: string;
}

/** Writes the empty extension into a new folder and returns it. */
export function makeEmptyExtension(): string {
  const skillpin = JSON.parse(readFileSync(join(BENCH_EXTENSION_DIR, 'manifest.json'), 'utf8')) as Manifest;
  const dir = mkdtempSync(join(tmpdir(), 'skillpin-bench-empty-ext-'));
  const manifest = {
    manifest_version: 3,
    name: 'Empty extension with the permissions of Skillpin',
    version: skillpin.version,
    permissions: skillpin.permissions ?? [],
    optional_permissions: skillpin.optional_permissions ?? [],
    host_permissions: skillpin.host_permissions ?? [],
    ...(skillpin.minimum_chrome_version ? { minimum_chrome_version: skillpin.minimum_chrome_version } : {}),
    background: { service_worker: 'background.js' },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'background.js'), '// Nothing: no listener, no work.\n');
  return dir;
}
