// The unit test tree mirrors the source tree (test/README.md): a test of lib/<dir>/<file>.ts sits
// in test/unit/<dir>/, a test of components/<dir>/… in test/unit/components/<dir>/, a test of
// entrypoints/<dir>/… in test/unit/entrypoints/<dir>/, a test of host/… (the desktop program) in test/unit/host/. Only the named suites, which cross the
// whole engine and mirror no single module, have folders of their own. The rule is checked first
// on paths whose answer is known, so a check that flags nothing cannot pass the repository check.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '../../..');
const UNIT = 'test/unit';

/** Suite folders: each crosses many modules, so none mirrors one; test/README.md says what each is for. */
const SUITES = ['architecture', 'conformance', 'docs', 'fixtures', 'fuzz', 'hostile', 'hostile-browser', 'interop', 'scripts'];

const isTest = (name: string): boolean => /\.test\.tsx?$/.test(name);

/** The source folder a test folder (relative to test/unit, '' for its root) mirrors, or null for a suite folder. */
function counterpart(testDir: string): string | null {
  const parts = testDir === '' ? [] : testDir.split('/');
  const first = parts[0];
  if (first !== undefined && SUITES.includes(first)) return null;
  if (first === 'components' || first === 'entrypoints' || first === 'host') return parts.join('/');
  return ['lib', ...parts].join('/');
}

/** Test files (repository-relative) whose folder mirrors no source folder, each with the folder it would need. */
function misplaced(testFiles: string[], isDir: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const file of testFiles) {
    if (!file.startsWith(`${UNIT}/`) || !isTest(file)) continue;
    const dir = dirname(file.slice(UNIT.length + 1));
    const source = counterpart(dir === '.' ? '' : dir);
    if (source !== null && !isDir(source)) out.push(`${file}: no ${source}/`);
  }
  return out;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...walk(rel));
    else out.push(rel);
  }
  return out;
}

const isRepoDir = (path: string): boolean => existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isDirectory();

describe('the rule, on known paths', () => {
  const dirs = new Set(['lib', 'lib/verify', 'lib/report', 'components', 'components/popup', 'entrypoints/background']);
  const isDir = (p: string): boolean => dirs.has(p);

  it('maps a test folder to the source folder it mirrors', () => {
    expect(counterpart('verify')).toBe('lib/verify');
    expect(counterpart('components/popup')).toBe('components/popup');
    expect(counterpart('entrypoints/background')).toBe('entrypoints/background');
    expect(counterpart('host')).toBe('host');
    expect(counterpart('')).toBe('lib');
    expect(counterpart('hostile')).toBeNull();
    expect(counterpart('fuzz/deeper')).toBeNull();
  });

  it('flags a test in a folder with no counterpart, and only those', () => {
    const files = [
      'test/unit/verify/archive-tar.test.ts',
      'test/unit/report/codes.test.ts',
      'test/unit/components/popup/Popup.test.tsx',
      'test/unit/entrypoints/background/incognito-tabs.test.ts',
      'test/unit/hostile/hostile.test.ts',
      'test/unit/verify/corpus.ts',
      'test/unit/archive/tar.test.ts',
      'test/unit/probe/codes.test.ts',
      'test/unit/ui/popup.test.tsx',
      'test/unit/components/ui/x.test.tsx',
    ];
    expect(misplaced(files, isDir)).toEqual([
      'test/unit/archive/tar.test.ts: no lib/archive/',
      'test/unit/probe/codes.test.ts: no lib/probe/',
      'test/unit/ui/popup.test.tsx: no lib/ui/',
      'test/unit/components/ui/x.test.tsx: no components/ui/',
    ]);
  });
});

describe('the unit test tree', () => {
  it('every unit test outside the suite folders sits in a folder that mirrors lib/, components/, entrypoints/ or host/', () => {
    const files = walk(UNIT);
    expect(files.filter((f) => isTest(f)).length).toBeGreaterThan(50);
    expect(misplaced(files, isRepoDir)).toEqual([]);
  });

  it('the suite folders exist, shadow no source folder, and test/README.md names each', () => {
    const readme = readFileSync(join(ROOT, 'test/README.md'), 'utf8');
    for (const suite of SUITES) {
      expect(isRepoDir(`${UNIT}/${suite}`), suite).toBe(true);
      expect(isRepoDir(`lib/${suite}`), `lib/${suite}`).toBe(false);
      expect(isRepoDir(`host/${suite}`), `host/${suite}`).toBe(false);
      expect(readme, suite).toContain(`\`${UNIT}/${suite}/\``);
    }
  });

  it('the test tree has no folder the README does not describe', () => {
    const readme = readFileSync(join(ROOT, 'test/README.md'), 'utf8');
    const top = readdirSync(join(ROOT, 'test')).filter((n) => isRepoDir(`test/${n}`));
    for (const name of top) expect(readme, `test/${name}`).toContain(`\`test/${name}/\``);
  });
});
