// @ts-check
// Checks the store packages `npm run zip` writes: each extension zip holds
// every file its manifest, its pages and its scripts reference, and nothing that only the tests
// need (test files, test-build permissions, test hooks in its scripts); the sources zip (what AMO asks for) holds what a reviewer needs to rebuild the add-on
// with `npm ci && npm run zip`, and no tests, builds or installed packages.
// Also sorts `web-ext lint` findings into ours and those inside bundled libraries.
import { unzipSync, strFromU8 } from 'fflate';

/** @typedef {Record<string, Uint8Array>} ZipFiles */

/** Paths (inside a zip) that only tests need, or that a store package must not ship. */
const TEST_ONLY = [
  { re: /(^|\/)test\//, why: 'a test folder' },
  { re: /(^|\/)(fixtures|e2e|__tests__)\//, why: 'test fixtures' },
  { re: /\.(test|spec)\.[cm]?[jt]sx?$/, why: 'a test file' },
  { re: /\.map$/, why: 'a source map' },
  { re: /(^|\/)node_modules\//, why: 'installed packages' },
  { re: /(^|\/)\.output\//, why: 'a build folder' },
  { re: /(^|\/)\.git\//, why: 'git data' },
];

/** Permissions only the end-to-end build carries (wxt.config.ts, SKILLPIN_E2E_BUILD). */
const E2E_ONLY_PERMISSIONS = ['clipboardRead'];

/**
 * Test hooks: the end-to-end build's listener record (entrypoints/background/e2e-record.ts,
 * E2E_GLOBAL) and the globals the background once exposed to tests. A store package names none.
 */
export const TEST_HOOK_NAMES = ['skillpinTest', 'skillpinReady', 'skillpinNavTrace', 'skillpinLoadGate'];
const TEST_HOOK_RE = new RegExp(`\\b(?:${TEST_HOOK_NAMES.join('|')})\\b|\\b(?:globalThis|self|window)\\.skillpin\\w*`, 'g');

/**
 * The test hooks each script of a package names, as "path: name" (none in a store package).
 * @param {ZipFiles} files
 * @returns {string[]}
 */
export function testHooksIn(files) {
  /** @type {string[]} */
  const found = [];
  for (const [path, data] of Object.entries(files)) {
    if (!/\.m?js$/.test(path)) continue;
    for (const name of new Set(strFromU8(data).match(TEST_HOOK_RE) ?? [])) found.push(`${path}: ${name}`);
  }
  return found;
}

/** zod's schema classes keep their names ($ZodObject, $ZodCheck…) in a minified build. */
const SCHEMA_CODE_RE = /\$Zod[A-Z]/;

/**
 * The scripts of a package, other than the background's, that carry zod's schema code. The pages
 * send messages and the background checks them (lib/messages/table.ts): schema code in a page's
 * script is bytes every page loads for nothing (a value imported through a module that also loads
 * the message table brings it in).
 * @param {ZipFiles} files
 * @param {Record<string, unknown>} manifest
 * @returns {string[]}
 */
export function schemaCodeOutsideBackground(files, manifest) {
  const bg = isRecord(manifest.background) ? manifest.background : {};
  const background = new Set([...strings(bg.scripts), ...(typeof bg.service_worker === 'string' ? [bg.service_worker] : [])]);
  return Object.keys(files).filter((path) => /\.m?js$/.test(path) && !background.has(path) && SCHEMA_CODE_RE.test(strFromU8(files[path] ?? new Uint8Array(0))));
}

/**
 * @param {Uint8Array} bytes
 * @returns {ZipFiles}
 */
export function readZip(bytes) {
  const files = unzipSync(bytes);
  /** @type {ZipFiles} */
  const out = {};
  for (const [name, data] of Object.entries(files)) if (!name.endsWith('/')) out[name] = data;
  return out;
}

/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isRecord = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** @param {unknown} v @returns {string[]} */
const strings = (v) => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : typeof v === 'string' ? [v] : []);

/** Root-relative path of a reference made from `from` (a path in the zip), without query or hash. */
function resolveRef(from, ref) {
  const clean = ref.split(/[?#]/)[0] ?? '';
  if (clean.startsWith('/')) return clean.slice(1);
  const parts = from.split('/').slice(0, -1);
  for (const seg of clean.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

/**
 * The files a manifest names, as zip paths.
 * @param {Record<string, unknown>} m
 * @returns {string[]}
 */
export function manifestReferences(m) {
  /** @type {string[]} */
  const refs = [];
  const add = (/** @type {unknown} */ v) => refs.push(...strings(v).map((s) => resolveRef('', s)));
  if (isRecord(m.icons)) Object.values(m.icons).forEach(add);
  for (const key of ['action', 'browser_action', 'page_action']) {
    const a = m[key];
    if (!isRecord(a)) continue;
    add(a.default_popup);
    if (isRecord(a.default_icon)) Object.values(a.default_icon).forEach(add);
    else add(a.default_icon);
  }
  if (isRecord(m.background)) {
    add(m.background.service_worker);
    add(m.background.scripts);
    add(m.background.page);
  }
  if (isRecord(m.options_ui)) add(m.options_ui.page);
  add(m.options_page);
  if (isRecord(m.side_panel)) add(m.side_panel.default_path);
  if (isRecord(m.sidebar_action)) add(m.sidebar_action.default_panel);
  for (const cs of Array.isArray(m.content_scripts) ? m.content_scripts : []) {
    if (!isRecord(cs)) continue;
    add(cs.js);
    add(cs.css);
  }
  for (const war of Array.isArray(m.web_accessible_resources) ? m.web_accessible_resources : []) {
    if (isRecord(war)) add(strings(war.resources).filter((r) => !r.includes('*')));
  }
  if (typeof m.default_locale === 'string') refs.push(`_locales/${m.default_locale}/messages.json`);
  return [...new Set(refs)];
}

/**
 * References inside a page or script: <script src>, <link href>, relative imports, and the
 * dependency lists the bundler writes (`"chunks/x.js"`, `"assets/x.css"`).
 * @param {string} path
 * @param {string} text
 * @returns {string[]}
 */
export function fileReferences(path, text) {
  /** @type {string[]} */
  const refs = [];
  if (path.endsWith('.html')) {
    for (const m of text.matchAll(/<(?:script|link|img)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)) {
      const ref = m[1] ?? '';
      if (!/^[a-z][a-z0-9+.-]*:/i.test(ref)) refs.push(resolveRef(path, ref));
    }
  } else if (/\.m?js$/.test(path)) {
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)["'](\.{1,2}\/[^"']+)["']/g)) refs.push(resolveRef(path, m[1] ?? ''));
    for (const m of text.matchAll(/["'](?:\/)?((?:chunks|assets|content-scripts)\/[^"'\s]+\.(?:js|css))["']/g)) refs.push(m[1] ?? '');
  }
  return refs;
}

/**
 * Problems of one extension zip; [] when it is store-ready.
 * @param {ZipFiles} files
 * @param {'chrome' | 'firefox'} browser
 * @returns {string[]}
 */
export function checkExtensionZip(files, browser) {
  /** @type {string[]} */
  const problems = [];
  const raw = files['manifest.json'];
  if (!raw) return ['manifest.json is missing'];
  /** @type {Record<string, unknown>} */
  let m;
  try {
    const parsed = JSON.parse(strFromU8(raw));
    if (!isRecord(parsed)) return ['manifest.json is not an object'];
    m = parsed;
  } catch (err) {
    return [`manifest.json is not JSON: ${err instanceof Error ? err.message : String(err)}`];
  }
  for (const ref of manifestReferences(m)) if (!files[ref]) problems.push(`manifest references ${ref}, which is not in the package`);
  for (const [path, data] of Object.entries(files)) {
    if (!/\.(html|m?js)$/.test(path)) continue;
    for (const ref of fileReferences(path, strFromU8(data))) if (!files[ref]) problems.push(`${path} references ${ref}, which is not in the package`);
  }
  // Every __MSG_name__ in the manifest has an entry in the default locale.
  const locale = typeof m.default_locale === 'string' ? files[`_locales/${m.default_locale}/messages.json`] : undefined;
  /** @type {Record<string, unknown>} */
  let messages = {};
  try {
    messages = locale ? JSON.parse(strFromU8(locale)) : {};
  } catch {
    problems.push('the default locale is not JSON');
  }
  for (const mm of JSON.stringify(m).matchAll(/__MSG_([A-Za-z0-9_@]+)__/g)) {
    if (!(mm[1] ?? '') || !isRecord(messages[mm[1] ?? ''])) problems.push(`manifest uses __MSG_${mm[1]}__, which the default locale lacks`);
  }
  for (const path of Object.keys(files)) {
    const hit = TEST_ONLY.find((t) => t.re.test(path));
    if (hit) problems.push(`${path} is ${hit.why}`);
  }
  for (const hook of testHooksIn(files)) problems.push(`${hook} is a test hook (only the end-to-end build may carry one)`);
  for (const path of schemaCodeOutsideBackground(files, m)) problems.push(`${path} carries zod's schema code: the input checks belong to the background, not the pages`);
  const permissions = strings(m.permissions);
  for (const p of E2E_ONLY_PERMISSIONS) if (permissions.includes(p)) problems.push(`permission ${p} is only for the end-to-end build`);
  if (Array.isArray(m.web_accessible_resources) && m.web_accessible_resources.length > 0) {
    problems.push('web_accessible_resources is only for the end-to-end build (it would let any site frame the pages)');
  }
  const gecko = isRecord(m.browser_specific_settings) ? m.browser_specific_settings.gecko : undefined;
  if (browser === 'firefox') {
    if (!isRecord(gecko) || typeof gecko.id !== 'string') problems.push('the Firefox package needs browser_specific_settings.gecko.id');
    if (permissions.includes('offscreen')) problems.push('Firefox has no offscreen permission');
  } else if (m.browser_specific_settings !== undefined) {
    problems.push('the Chrome package carries browser_specific_settings');
  }
  return problems;
}

/** Files a rebuild from the sources zip needs (besides every `file:` dependency). */
const SOURCES_REQUIRED = ['package.json', 'package-lock.json', 'wxt.config.ts', 'tsconfig.json', 'README.md', 'LICENSE', 'public/_locales/en/messages.json'];
const SOURCES_FOLDERS = ['entrypoints/', 'lib/', 'components/'];

/**
 * Problems of the sources zip; [] when a reviewer can rebuild from it.
 * @param {ZipFiles} files
 * @returns {string[]}
 */
export function checkSourcesZip(files) {
  /** @type {string[]} */
  const problems = [];
  for (const f of SOURCES_REQUIRED) if (!files[f]) problems.push(`${f} is missing`);
  for (const dir of SOURCES_FOLDERS) if (!Object.keys(files).some((p) => p.startsWith(dir))) problems.push(`${dir} is missing`);
  const pkgBytes = files['package.json'];
  if (pkgBytes) {
    try {
      const pkg = JSON.parse(strFromU8(pkgBytes));
      const deps = { ...(pkg.dependencies ?? {}), ...(pkg.devDependencies ?? {}) };
      for (const [name, spec] of Object.entries(deps)) {
        if (typeof spec !== 'string' || !spec.startsWith('file:')) continue;
        const dir = resolveRef('', spec.slice('file:'.length));
        if (!files[`${dir}/package.json`]) problems.push(`${name} (${spec}) is missing, so npm ci cannot install`);
      }
    } catch {
      problems.push('package.json is not JSON');
    }
  }
  for (const path of Object.keys(files)) {
    const hit = TEST_ONLY.find((t) => t.re.test(path));
    if (hit) problems.push(`${path} is ${hit.why}`);
  }
  return problems;
}

/**
 * Library code the linter flags that is not ours: the text at the flagged place matches.
 * preact sets innerHTML for dangerouslySetInnerHTML (our only use renders sanitized HTML);
 * DOMPurify parses into its own inert document.
 */
const LIBRARY_FINDINGS = [
  { code: 'UNSAFE_VAR_ASSIGNMENT', library: 'preact', re: /\.innerHTML=\w+\.__html/ },
  { code: 'UNSAFE_VAR_ASSIGNMENT', library: 'dompurify', re: /documentElement\.innerHTML=/ },
];

/**
 * @typedef {{ _type?: string, code: string, message?: string, file?: string, line?: number, column?: number }} LintMessage
 * @param {LintMessage[]} messages  errors, warnings and notices of `web-ext lint --output json`
 * @param {(file: string) => string | null} readSource  a packaged file's text
 * @returns {{ ours: LintMessage[], library: (LintMessage & { library: string })[] }}
 */
export function classifyLint(messages, readSource) {
  /** @type {LintMessage[]} */
  const ours = [];
  /** @type {(LintMessage & { library: string })[]} */
  const library = [];
  for (const msg of messages) {
    const text = msg.file ? readSource(msg.file) : null;
    let snippet = '';
    if (text !== null && msg.line !== undefined) {
      const line = text.split('\n')[msg.line - 1] ?? '';
      const col = Math.max(0, (msg.column ?? 0) - 1);
      snippet = line.slice(Math.max(0, col - 80), col + 80);
    }
    const known = LIBRARY_FINDINGS.find((k) => k.code === msg.code && snippet !== '' && k.re.test(snippet));
    if (known) library.push({ ...msg, library: known.library });
    else ours.push(msg);
  }
  return { ours, library };
}
