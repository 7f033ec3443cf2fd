// A locked install (`npm ci`, which .ci/run uses) needs a lock file in which every dependency
// of every locked package resolves, optional ones included: npm ci calls a lock without one
// "out of sync" and stops. The reference publisher's optional @rckflr/minimemory is not served
// by the registry, so package.json overrides it with a local folder that fails on import
// (scripts/npm/minimemory-absent).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../../..');

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  link?: boolean;
  resolved?: string;
}

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { lockfileVersion: number; packages: Record<string, LockEntry> };
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>; overrides?: Record<string, string> };

/** Node's lookup: <dir>/node_modules/<name>, then each ancestor's node_modules. */
function resolves(from: string, name: string): boolean {
  let dir = from;
  for (;;) {
    if (lock.packages[dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`]) return true;
    if (dir === '') return false;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

describe('package-lock.json', () => {
  it('resolves every dependency, optional ones included, of every locked package', () => {
    expect(lock.lockfileVersion).toBe(3);
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (entry.link) continue;
      const deps = { ...entry.dependencies, ...entry.optionalDependencies, ...(path === '' ? entry.devDependencies : {}) };
      for (const name of Object.keys(deps)) if (!resolves(path, name)) missing.push(`${path || '(root)'} -> ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it("the publisher's unserved optional engine is the local absent package, which fails on import", async () => {
    expect(pkg.overrides?.['@rckflr/minimemory']).toBe('$@rckflr/minimemory');
    expect(pkg.devDependencies['@rckflr/minimemory']).toBe('file:scripts/npm/minimemory-absent');
    expect(lock.packages['node_modules/@rckflr/minimemory']).toMatchObject({ link: true, resolved: 'scripts/npm/minimemory-absent' });
    await expect(import(join(ROOT, 'scripts/npm/minimemory-absent/index.js'))).rejects.toThrow(/not part of this repository/);
  });

  it('CI installs with npm ci', () => {
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    const commands = ci.split('\n').filter((l) => !l.trim().startsWith('#'));
    expect(commands.some((l) => /\bnpm ci\b/.test(l))).toBe(true);
    expect(commands.some((l) => /\bnpm install\b/.test(l))).toBe(false);
  });
});
