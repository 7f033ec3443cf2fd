// The install warnings Chromium shows for the built production manifest are the ones
// docs/store/permissions.md lists under "What Chrome shows at install", and each Chrome row's own
// warning is the one its "Chrome warning" cell names (TOOLCHAIN.md §8). The list is read from the
// document, so the document and this test cannot drift apart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, EXTENSION_DIR } from './support/extension';
import { readPermissionsDoc, warningDifference, type Manifest } from '../support/store-permissions';

const doc = readPermissionsDoc(process.cwd());
/** The manifest global-setup built (read in the tests: collecting them comes before the build). */
const built = (): Manifest => JSON.parse(readFileSync(join(EXTENSION_DIR, 'manifest.json'), 'utf8')) as Manifest;

function warningsOf(page: Page, manifest: Manifest): Promise<string[]> {
  return page.evaluate(
    (json) =>
      new Promise<string[]>((done, fail) => chrome.management.getPermissionWarningsByManifest(json, (w) => (chrome.runtime.lastError ? fail(new Error(chrome.runtime.lastError.message)) : done(w)))),
    JSON.stringify(manifest),
  );
}

/** A manifest that asks for nothing but the given permission. */
function alone(name: string, kind: string): Manifest {
  const key = kind.includes('host') ? 'host_permissions' : 'permissions';
  return { manifest_version: 3, name: 'alone', version: '1', [key]: [name] };
}

test('Chromium shows exactly the install warnings docs/store/permissions.md lists for the production manifest', async ({ extPage }) => {
  const manifest = built();
  expect(manifest.web_accessible_resources, 'a production build').toBeUndefined();
  const actual = await warningsOf(extPage, manifest);
  expect(warningDifference(actual, doc.installWarnings)).toEqual({ missing: [], unexpected: [] });
  expect(actual).toHaveLength(doc.installWarnings.length);
});

test("each Chrome permission's own warning is the one its row names", async ({ extPage }) => {
  const rows = doc.permissions.filter((r) => r.browsers.includes('chrome'));
  expect(rows.length).toBeGreaterThan(0);
  const seen: Record<string, string | null> = {};
  for (const row of rows) {
    const warnings = await warningsOf(extPage, alone(row.name, row.kind));
    expect(warnings.length, row.name).toBeLessThanOrEqual(1);
    seen[row.name] = warnings[0] ?? null;
  }
  expect(seen).toEqual(Object.fromEntries(rows.map((r) => [r.name, r.chromeWarning])));
});

test('the comparison catches a permission the document does not list', async ({ extPage }) => {
  const manifest = built();
  const permissions = [...((manifest.permissions as string[] | undefined) ?? []), 'history'];
  const actual = await warningsOf(extPage, { ...manifest, permissions });
  expect(warningDifference(actual, doc.installWarnings)).toEqual({ missing: [], unexpected: ['Read and change your browsing history on all your signed-in devices'] });
});
