// docs/store/permissions.md as data, and its comparison with the built manifests: the rows of the
// permission table and of the manifest-entry table, and the install warnings Chrome shows. Read by
// test/unit/docs/store-permissions.test.ts (every manifest item has a row, every row is in a
// manifest) and test/e2e/install-warnings.spec.ts (Chromium's warnings are the documented ones).
// A row that does not have the expected cells is an error that names its line, not a row skipped.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const BROWSERS = ['chrome', 'firefox'] as const;
export type Browser = (typeof BROWSERS)[number];
const BROWSER_NAMES: Record<string, Browser> = { Chrome: 'chrome', Firefox: 'firefox' };

/** The manifest keys that hold permissions, and the kind the table gives each. */
export const PERMISSION_KEYS = {
  permissions: 'permission',
  optional_permissions: 'optional permission',
  host_permissions: 'host permission',
  optional_host_permissions: 'optional host permission',
} as const;
export type PermissionKind = (typeof PERMISSION_KEYS)[keyof typeof PERMISSION_KEYS];
const KINDS = new Set<string>(Object.values(PERMISSION_KEYS));

/** Top-level manifest keys that describe the extension and ask the browser for nothing: no row. */
export const PLAIN_KEYS = new Set(['manifest_version', 'name', 'short_name', 'description', 'version', 'version_name', 'icons', 'default_locale', 'author', 'homepage_url']);

export interface PermissionRow {
  name: string;
  kind: PermissionKind;
  browsers: Browser[];
  usedIn: string[];
  /** The warning Chrome shows for it alone: a text, null for none, undefined for "not a Chrome permission". */
  chromeWarning: string | null | undefined;
  line: number;
}

export interface EntryRow {
  name: string;
  browsers: Browser[];
  usedIn: string[];
  line: number;
}

export interface PermissionsDoc {
  permissions: PermissionRow[];
  entries: EntryRow[];
  /** The bullet list under "What Chrome shows at install". */
  installWarnings: string[];
}

export const PERMISSIONS_DOC = 'docs/store/permissions.md';

/** The lines of the section under `## <title>`, up to the next `## ` heading, with their numbers. */
function section(markdown: string, title: string): { text: string; line: number }[] {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() === `## ${title}`);
  if (start < 0) throw new Error(`${PERMISSIONS_DOC} has no "## ${title}" section`);
  const out: { text: string; line: number }[] = [];
  for (let i = start + 1; i < lines.length && !/^#{1,2} /.test(lines[i] ?? ''); i++) out.push({ text: lines[i] ?? '', line: i + 1 });
  return out;
}

/** The body rows of the first table in a section, each split into its cells. */
function tableRows(lines: { text: string; line: number }[], columns: number): { cells: string[]; line: number }[] {
  const rows = lines.filter((l) => l.text.startsWith('|'));
  if (rows.length < 2 || !/^\|(\s*-+\s*\|)+$/.test(rows[1]?.text.replace(/:/g, '') ?? '')) throw new Error(`${PERMISSIONS_DOC}: a table with a header row is expected at line ${rows[0]?.line ?? '?'}`);
  return rows.slice(2).map(({ text, line }) => {
    const cells = text
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split(' | ')
      .map((c) => c.trim());
    if (cells.length !== columns) throw new Error(`${PERMISSIONS_DOC}:${line}: ${cells.length} cells, ${columns} expected`);
    return { cells, line };
  });
}

function codeName(cell: string, line: number): string {
  const m = /^`([^`]+)`$/.exec(cell);
  if (!m?.[1]) throw new Error(`${PERMISSIONS_DOC}:${line}: the first cell must be one name in backticks, not ${JSON.stringify(cell)}`);
  return m[1];
}

function browsersOf(cell: string, line: number): Browser[] {
  const out = cell.split(',').map((b) => BROWSER_NAMES[b.trim()]);
  if (out.length === 0 || out.some((b) => b === undefined)) throw new Error(`${PERMISSIONS_DOC}:${line}: browsers must be "Chrome", "Firefox" or both, not ${JSON.stringify(cell)}`);
  return out as Browser[];
}

function pathsOf(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
}

function warningOf(cell: string, line: number): string | null | undefined {
  if (cell === 'none') return null;
  if (cell === '—') return undefined;
  const m = /^"([^"]+)"$/.exec(cell);
  if (!m?.[1]) throw new Error(`${PERMISSIONS_DOC}:${line}: the Chrome warning must be none, — or a quoted text, not ${JSON.stringify(cell)}`);
  return m[1];
}

export function parsePermissionsDoc(markdown: string): PermissionsDoc {
  const permissions = tableRows(section(markdown, 'Permissions'), 7).map(({ cells, line }): PermissionRow => {
    const [name, kind, browsers, , usedIn, , warning] = cells as [string, string, string, string, string, string, string];
    if (!KINDS.has(kind)) throw new Error(`${PERMISSIONS_DOC}:${line}: unknown kind ${JSON.stringify(kind)}`);
    return { name: codeName(name, line), kind: kind as PermissionKind, browsers: browsersOf(browsers, line), usedIn: pathsOf(usedIn), chromeWarning: warningOf(warning, line), line };
  });
  const entries = tableRows(section(markdown, 'Other manifest entries'), 4).map(({ cells, line }): EntryRow => {
    const [name, browsers, , usedIn] = cells as [string, string, string, string];
    return { name: codeName(name, line), browsers: browsersOf(browsers, line), usedIn: pathsOf(usedIn), line };
  });
  const installWarnings = section(markdown, 'What Chrome shows at install')
    .map((l) => /^- (.+)$/.exec(l.text)?.[1]?.trim())
    .filter((w): w is string => w !== undefined);
  if (installWarnings.length === 0) throw new Error(`${PERMISSIONS_DOC}: no install warnings listed`);
  return { permissions, entries, installWarnings };
}

export function readPermissionsDoc(root: string): PermissionsDoc {
  return parsePermissionsDoc(readFileSync(join(root, PERMISSIONS_DOC), 'utf8'));
}

export type Manifest = Record<string, unknown>;

/** What a manifest asks for: its permissions by kind, and its top-level entries that need a row. */
export function manifestItems(manifest: Manifest): { permissions: { name: string; kind: PermissionKind }[]; entries: string[] } {
  const permissions: { name: string; kind: PermissionKind }[] = [];
  for (const [key, kind] of Object.entries(PERMISSION_KEYS)) {
    const list = manifest[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.some((p) => typeof p !== 'string')) throw new Error(`manifest ${key} is not a list of names`);
    for (const name of list as string[]) permissions.push({ name, kind });
  }
  const entries = Object.keys(manifest).filter((k) => !PLAIN_KEYS.has(k) && !(k in PERMISSION_KEYS));
  return { permissions, entries };
}

/**
 * Every way the table and the manifests disagree, one sentence each; [] when each manifest item
 * has a row naming exactly the browsers whose manifest has it.
 */
export function tableProblems(doc: PermissionsDoc, manifests: Record<Browser, Manifest>): string[] {
  const problems: string[] = [];
  const items = Object.fromEntries(BROWSERS.map((b) => [b, manifestItems(manifests[b])])) as Record<Browser, ReturnType<typeof manifestItems>>;
  const check = (label: string, rows: { browsers: Browser[]; line: number }[], inManifest: (b: Browser) => boolean) => {
    const actual = BROWSERS.filter(inManifest);
    if (rows.length > 1) problems.push(`${label} has ${rows.length} rows (lines ${rows.map((r) => r.line).join(', ')})`);
    const row = rows[0];
    if (!row) {
      if (actual.length > 0) problems.push(`${label} is in the ${actual.join(' and ')} manifest but has no row in ${PERMISSIONS_DOC}`);
      return;
    }
    if (actual.length === 0) problems.push(`${label} (line ${row.line}) is in neither manifest`);
    else if ([...row.browsers].sort().join() !== actual.join()) problems.push(`${label} (line ${row.line}) names ${row.browsers.join(' and ')}, but the ${actual.join(' and ')} manifest has it`);
  };
  const permissionKeys = new Set([...doc.permissions.map((r) => `${r.kind}\0${r.name}`), ...BROWSERS.flatMap((b) => items[b].permissions.map((p) => `${p.kind}\0${p.name}`))]);
  for (const key of permissionKeys) {
    const [kind, name] = key.split('\0') as [PermissionKind, string];
    const rows = doc.permissions.filter((r) => r.kind === kind && r.name === name);
    check(`the ${kind} ${name}`, rows, (b) => items[b].permissions.some((p) => p.kind === kind && p.name === name));
  }
  for (const name of new Set([...doc.entries.map((r) => r.name), ...BROWSERS.flatMap((b) => items[b].entries)])) {
    check(
      `the manifest entry ${name}`,
      doc.entries.filter((r) => r.name === name),
      (b) => items[b].entries.includes(name),
    );
  }
  for (const row of doc.permissions) {
    const chrome = row.browsers.includes('chrome');
    if (chrome && row.chromeWarning === undefined) problems.push(`the ${row.kind} ${row.name} (line ${row.line}) is in Chrome's manifest: its Chrome warning is "none" or a text, not —`);
    if (!chrome && row.chromeWarning !== undefined) problems.push(`the ${row.kind} ${row.name} (line ${row.line}) is Firefox's only: its Chrome warning is —`);
  }
  return problems;
}

/**
 * Builds both production manifests into `outDir` with WXT's own build (what `npx wxt build` and
 * `npx wxt build -b firefox` write, permissions WXT adds for entrypoints included) and reads them.
 * The end-to-end switch is cleared, so this is the store build whatever the caller's environment.
 */
export function buildProductionManifests(root: string, outDir: string): Record<Browser, Manifest> {
  const script = [
    "import { build } from 'wxt';",
    'const quiet = { debug() {}, log() {}, info() {}, success() {}, warn: console.warn, error: console.error, fatal: console.error, level: 0 };',
    `for (const browser of ${JSON.stringify(BROWSERS)}) await build({ browser, outDir: ${JSON.stringify(outDir)}, logger: quiet });`,
  ].join('\n');
  const env = { ...process.env };
  delete env.SKILLPIN_E2E_BUILD;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  return Object.fromEntries(BROWSERS.map((b) => [b, JSON.parse(readFileSync(join(outDir, `${b}-mv3`, 'manifest.json'), 'utf8')) as Manifest])) as Record<Browser, Manifest>;
}

/** What differs between Chromium's install warnings and the documented ones (order aside). */
export function warningDifference(actual: readonly string[], documented: readonly string[]): { missing: string[]; unexpected: string[] } {
  return { missing: documented.filter((w) => !actual.includes(w)), unexpected: actual.filter((w) => !documented.includes(w)) };
}
