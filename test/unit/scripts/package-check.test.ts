// The store-package checks of scripts/check-packages.mjs, over zips built
// here: a complete package passes, and each thing a store package must not lack or carry is
// named. The real packages are checked by `npm run check:packages` after `npm run zip`.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { checkExtensionZip, checkSourcesZip, classifyLint, readZip, TEST_HOOK_NAMES, testHooksIn } from '../../../scripts/lib/package-check.mjs';

type Tree = Record<string, string>;

const CHROME_MANIFEST = {
  manifest_version: 3,
  name: '__MSG_extName__',
  description: '__MSG_extDescription__',
  version: '0.1.0',
  default_locale: 'en',
  icons: { '16': 'icon/16.png', '128': 'icon/128.png' },
  permissions: ['storage', 'offscreen'],
  action: { default_title: 'Skillpin', default_popup: 'popup.html' },
  background: { service_worker: 'background.js' },
  options_ui: { open_in_tab: true, page: 'options.html' },
  content_scripts: [{ matches: ['https://*.claude.ai/*'], js: ['content-scripts/chat.js'] }],
};

function chromeTree(manifest: object = CHROME_MANIFEST): Tree {
  return {
    'manifest.json': JSON.stringify(manifest),
    '_locales/en/messages.json': JSON.stringify({ extName: { message: 'Skillpin' }, extDescription: { message: 'Finds skills.' } }),
    'icon/16.png': 'png',
    'icon/128.png': 'png',
    'background.js': 'import("./chunks/lazy-1.js");',
    'chunks/lazy-1.js': 'export const x = 1;',
    'popup.html': '<script type="module" src="/chunks/popup-1.js"></script><link rel="stylesheet" href="/assets/popup-1.css">',
    'options.html': '<script type="module" src="/chunks/options-1.js"></script>',
    'chunks/popup-1.js': 'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["chunks/details-1.js","assets/popup-1.css"])))=>i.map(i=>d[i]);import{a}from"./base-1.js";',
    'chunks/options-1.js': 'import{a}from"./base-1.js";',
    'chunks/details-1.js': 'import{a}from"./base-1.js";',
    'chunks/base-1.js': 'export const a = 1;',
    'assets/popup-1.css': 'body{}',
    'content-scripts/chat.js': '(()=>{})();',
  };
}

const zip = (tree: Tree): Uint8Array => zipSync(Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, strToU8(v)])));
const check = (tree: Tree, browser: 'chrome' | 'firefox' = 'chrome'): string[] => checkExtensionZip(readZip(zip(tree)), browser);

describe('extension packages', () => {
  it('a package with everything its manifest, pages and scripts reference passes', () => {
    expect(check(chromeTree())).toEqual([]);
  });

  it('names a file the manifest references that is missing', () => {
    const tree = chromeTree();
    delete tree['icon/128.png'];
    delete tree['content-scripts/chat.js'];
    expect(check(tree)).toEqual(['manifest references icon/128.png, which is not in the package', 'manifest references content-scripts/chat.js, which is not in the package']);
  });

  it('names a chunk, stylesheet or lazy import a page or script references that is missing', () => {
    const tree = chromeTree();
    delete tree['chunks/base-1.js'];
    delete tree['assets/popup-1.css'];
    delete tree['chunks/lazy-1.js'];
    const problems = check(tree);
    expect(problems).toContain('popup.html references assets/popup-1.css, which is not in the package');
    expect(problems).toContain('chunks/popup-1.js references chunks/base-1.js, which is not in the package');
    expect(problems).toContain('chunks/popup-1.js references assets/popup-1.css, which is not in the package');
    expect(problems).toContain('background.js references chunks/lazy-1.js, which is not in the package');
  });

  it("names a page's script that carries zod's schema code; the background may", () => {
    const tree = chromeTree();
    tree['background.js'] = 'import("./chunks/lazy-1.js");class e{};var t=r("$ZodObject",(e,t)=>{});';
    expect(check(tree)).toEqual([]);
    tree['chunks/base-1.js'] = 'export const a = 1;var c=r("$ZodCheckMaxLength",(e,t)=>{});';
    expect(check(tree)).toEqual(["chunks/base-1.js carries zod's schema code: the input checks belong to the background, not the pages"]);
    // A Firefox background names its scripts, not a service worker.
    const firefox = { ...CHROME_MANIFEST, background: { scripts: ['background.js'] }, permissions: ['storage'], browser_specific_settings: { gecko: { id: 'skillpin@example.org' } } };
    const ff = { ...chromeTree(firefox), 'background.js': 'import("./chunks/lazy-1.js");var t=r("$ZodObject",()=>{});' };
    expect(check(ff, 'firefox')).toEqual([]);
    // zod's global configuration (set where lib/input.ts is loaded) is not schema code.
    tree['chunks/base-1.js'] = 'export const a = 1;globalThis.__zod_globalConfig??={};';
    expect(check(tree)).toEqual([]);
  });

  it('names a __MSG_ key the default locale lacks, and a missing default locale', () => {
    const tree = chromeTree();
    tree['_locales/en/messages.json'] = JSON.stringify({ extName: { message: 'Skillpin' } });
    expect(check(tree)).toEqual(['manifest uses __MSG_extDescription__, which the default locale lacks']);
    delete tree['_locales/en/messages.json'];
    expect(check(tree)).toContain('manifest references _locales/en/messages.json, which is not in the package');
  });

  it('refuses what only the end-to-end build or the tests need', () => {
    const e2e = { ...CHROME_MANIFEST, permissions: [...CHROME_MANIFEST.permissions, 'clipboardRead'], web_accessible_resources: [{ resources: ['popup.html'], matches: ['http://127.0.0.1/*'] }] };
    const tree = { ...chromeTree(e2e), 'chunks/base-1.js.map': '{}', 'test/fixtures/corpus/llms.txt': '# x', 'lib/engine.test.js': '' };
    expect(check(tree)).toEqual([
      'chunks/base-1.js.map is a source map',
      'test/fixtures/corpus/llms.txt is a test folder',
      'lib/engine.test.js is a test file',
      'permission clipboardRead is only for the end-to-end build',
      'web_accessible_resources is only for the end-to-end build (it would let any site frame the pages)',
    ]);
  });

  it('refuses a script that carries a test hook: the e2e listener record or a global the tests once read', () => {
    // As the bundler writes them (minified): the background of main before test hooks left the product.
    const old = 'var e=Pg();globalThis.skillpinNavTrace=e;let r=Ry({capMs:5e3});globalThis.skillpinLoadGate=r;globalThis.skillpin=i,globalThis.skillpinReady=i.ready.then(()=>!0);';
    expect(check({ ...chromeTree(), 'background.js': old })).toEqual([
      'background.js: globalThis.skillpinNavTrace is a test hook (only the end-to-end build may carry one)',
      'background.js: globalThis.skillpinLoadGate is a test hook (only the end-to-end build may carry one)',
      'background.js: globalThis.skillpin is a test hook (only the end-to-end build may carry one)',
      'background.js: globalThis.skillpinReady is a test hook (only the end-to-end build may carry one)',
    ]);
    const record = 'var Cy=`skillpinTest`;function Ey(e){globalThis[Cy]=e}';
    expect(check({ ...chromeTree(), 'chunks/base-1.js': record })).toEqual(['chunks/base-1.js: skillpinTest is a test hook (only the end-to-end build may carry one)']);
    expect(check({ ...chromeTree(), 'background.js': 'self.skillpinDebug={};' })).toEqual(['background.js: self.skillpinDebug is a test hook (only the end-to-end build may carry one)']);
  });

  it('the content script guard and the extension name are no test hooks', () => {
    const files = readZip(zip({ ...chromeTree(), 'content-scripts/chat.js': 'const k="__skillpinChatContent";window[k]||(window[k]=1);chrome.runtime.sendMessage({type:"skillpin:ready"})' }));
    expect(testHooksIn(files)).toEqual([]);
  });

  it('the name the e2e build records its listeners under is one the check refuses', () => {
    const source = readFileSync('entrypoints/background/e2e-record.ts', 'utf8');
    const name = /export const E2E_GLOBAL = '([^']+)'/.exec(source)?.[1];
    expect(name).toBeDefined();
    expect(TEST_HOOK_NAMES).toContain(name);
  });

  it('a Firefox package needs its gecko id and has no offscreen permission; a Chrome package has no gecko settings', () => {
    const { background: _bg, ...rest } = CHROME_MANIFEST;
    const firefox = { ...rest, background: { scripts: ['background.js'] }, browser_specific_settings: { gecko: { id: 'skillpin@skillpin.dev' } } };
    expect(check(chromeTree(firefox), 'firefox')).toEqual(['Firefox has no offscreen permission']);
    const noId = { ...firefox, permissions: ['storage'], browser_specific_settings: {} };
    expect(check(chromeTree(noId), 'firefox')).toEqual(['the Firefox package needs browser_specific_settings.gecko.id']);
    expect(check(chromeTree({ ...CHROME_MANIFEST, browser_specific_settings: { gecko: { id: 'x' } } }))).toEqual(['the Chrome package carries browser_specific_settings']);
  });

  it('a package without a manifest, or with one that is not JSON, says so', () => {
    const tree = chromeTree();
    delete tree['manifest.json'];
    expect(check(tree)).toEqual(['manifest.json is missing']);
    expect(check({ ...tree, 'manifest.json': '{' })[0]).toMatch(/^manifest.json is not JSON/);
  });
});

function sourcesTree(): Tree {
  return {
    'package.json': JSON.stringify({ name: 'skillpin', devDependencies: { '@rckflr/minimemory': 'file:scripts/npm/minimemory-absent', vite: '~8.3.8' } }),
    'package-lock.json': '{}',
    'wxt.config.ts': '',
    'tsconfig.json': '{}',
    'README.md': '# Skillpin',
    LICENSE: 'MIT',
    'public/_locales/en/messages.json': '{}',
    'entrypoints/popup/main.tsx': '',
    'lib/messages.ts': '',
    'components/popup/Popup.tsx': '',
    'scripts/npm/minimemory-absent/package.json': '{}',
  };
}

describe('sources package', () => {
  it('passes with what a rebuild needs', () => {
    expect(checkSourcesZip(readZip(zip(sourcesTree())))).toEqual([]);
  });

  it('names a missing build file, a missing file: dependency, and tests, builds or packages inside', () => {
    const tree: Tree = { ...sourcesTree(), 'test/unit/x.test.ts': '', 'node_modules/a/index.js': '', '.output/chrome-mv3/manifest.json': '{}' };
    delete tree['LICENSE'];
    delete tree['scripts/npm/minimemory-absent/package.json'];
    expect(checkSourcesZip(readZip(zip(tree)))).toEqual([
      'LICENSE is missing',
      '@rckflr/minimemory (file:scripts/npm/minimemory-absent) is missing, so npm ci cannot install',
      'test/unit/x.test.ts is a test folder',
      'node_modules/a/index.js is installed packages',
      '.output/chrome-mv3/manifest.json is a build folder',
    ]);
  });
});

describe('web-ext lint findings', () => {
  const files: Record<string, string> = {
    'chunks/base.js': 'x;p?(c||(t.innerHTML=p.__html),n.__k=[]):0',
    'chunks/details.js': 'try{t.documentElement.innerHTML=at?w:i}catch{}\nlet s=o.createElement(`template`);s.innerHTML=a;',
  };
  const read = (f: string): string | null => files[f] ?? null;

  it('library findings are recognised by the code they point at; anything else is ours', () => {
    const r = classifyLint(
      [
        { code: 'UNSAFE_VAR_ASSIGNMENT', file: 'chunks/base.js', line: 1, column: 17 },
        { code: 'UNSAFE_VAR_ASSIGNMENT', file: 'chunks/details.js', line: 1, column: 5 },
        { code: 'UNSAFE_VAR_ASSIGNMENT', file: 'chunks/details.js', line: 2, column: 40 },
        { code: 'KEY_FIREFOX_ANDROID_UNSUPPORTED_BY_MIN_VERSION', file: 'manifest.json' },
      ],
      read,
    );
    expect(r.library.map((m) => m.library)).toEqual(['preact', 'dompurify']);
    expect(r.ours.map((m) => `${m.code}@${m.file}:${m.line ?? ''}`)).toEqual(['UNSAFE_VAR_ASSIGNMENT@chunks/details.js:2', 'KEY_FIREFOX_ANDROID_UNSUPPORTED_BY_MIN_VERSION@manifest.json:']);
  });
});
