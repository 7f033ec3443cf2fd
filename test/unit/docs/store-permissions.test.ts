// docs/store/permissions.md against the two production manifests, built here by WXT itself: every
// permission, host permission, optional permission and asking manifest entry of either manifest
// has exactly one row, naming exactly the browsers whose manifest has it, and every row is in a
// manifest. The checker is tried first on changes whose answer is known (a row taken away, a
// permission added, a row for a permission no manifest has), so a checker that finds nothing
// cannot pass the repository check.
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildProductionManifests, manifestItems, parsePermissionsDoc, readPermissionsDoc, tableProblems, type Browser, type Manifest, type PermissionsDoc } from '../../support/store-permissions';

const ROOT = join(__dirname, '../../..');
const OUT = join(ROOT, 'test-results/store-manifests');

let manifests: Record<Browser, Manifest>;
let doc: PermissionsDoc;
beforeAll(() => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  manifests = buildProductionManifests(ROOT, OUT);
  doc = readPermissionsDoc(ROOT);
}, 180_000);

describe('the permission table checker', () => {
  it('names a permission of a manifest that has no row', () => {
    const without = { ...doc, permissions: doc.permissions.filter((r) => r.name !== 'tabs') };
    expect(tableProblems(without, manifests)).toEqual([`the permission tabs is in the chrome and firefox manifest but has no row in docs/store/permissions.md`]);
  });

  it('names a permission added to one manifest, and a manifest entry nobody documented', () => {
    const chrome = { ...manifests.chrome, permissions: [...(manifests.chrome.permissions as string[]), 'history'], omnibox: { keyword: 'sp' } };
    expect(tableProblems(doc, { ...manifests, chrome })).toEqual([
      'the permission history is in the chrome manifest but has no row in docs/store/permissions.md',
      'the manifest entry omnibox is in the chrome manifest but has no row in docs/store/permissions.md',
    ]);
  });

  it('names a row no manifest has, and a row with the wrong browsers', () => {
    const offscreen = doc.permissions.find((r) => r.name === 'offscreen');
    if (!offscreen) throw new Error('no offscreen row');
    const changed: PermissionsDoc = {
      ...doc,
      permissions: [
        ...doc.permissions.filter((r) => r !== offscreen),
        { ...offscreen, browsers: ['chrome', 'firefox'] },
        { name: 'bookmarks', kind: 'optional permission', browsers: ['chrome'], usedIn: [], chromeWarning: 'x', line: 999 },
      ],
    };
    expect(tableProblems(changed, manifests)).toEqual([
      `the permission offscreen (line ${offscreen.line}) names chrome and firefox, but the chrome manifest has it`,
      'the optional permission bookmarks (line 999) is in neither manifest',
    ]);
  });

  it('refuses a row it cannot read, naming the line', () => {
    const text = '## Permissions\n\n| a | b | c | d | e | f | g |\n|---|---|---|---|---|---|---|\n| tabs | permission | Chrome | why | `x` | y | none |\n';
    expect(() => parsePermissionsDoc(text)).toThrow(/:5: the first cell must be one name in backticks/);
  });

  it('reads every kind of manifest item, plain entries aside', () => {
    const items = manifestItems({ name: 'x', version: '1', icons: {}, permissions: ['a'], optional_permissions: ['b'], host_permissions: ['c'], optional_host_permissions: ['d'], side_panel: {} });
    expect(items).toEqual({
      permissions: [
        { name: 'a', kind: 'permission' },
        { name: 'b', kind: 'optional permission' },
        { name: 'c', kind: 'host permission' },
        { name: 'd', kind: 'optional host permission' },
      ],
      entries: ['side_panel'],
    });
  });
});

describe('docs/store/permissions.md', () => {
  it('has one row for every permission and manifest entry of both production manifests, and no other', () => {
    expect(manifests.chrome.permissions).toContain('offscreen');
    expect(manifests.firefox.permissions).toContain('dns');
    expect(tableProblems(doc, manifests)).toEqual([]);
  });

  it('names only files that exist as the code that uses each permission', () => {
    const missing = [...doc.permissions, ...doc.entries].flatMap((r) => r.usedIn.filter((p) => !existsSync(join(ROOT, p))).map((p) => `${r.name}: ${p}`));
    expect(missing).toEqual([]);
    expect([...doc.permissions, ...doc.entries].filter((r) => r.usedIn.length === 0).map((r) => r.name)).toEqual([]);
  });
});
