// Package manifests whose install runs code (PRODUCT.md §6.1): npm lifecycle scripts, composer
// install hooks, setup.py, pyproject build hooks, Cargo build scripts, node-gyp and Ruby extensions.
// A line-by-line read: the key's line is the finding's line.
import type { Findings } from './findings';
import { baseName } from './file-kinds';

/** npm runs these on install, pack or publish. */
const NPM_LIFECYCLE = /"(preinstall|install|postinstall|prepublish|preprepare|prepare|postprepare|prepack|postpack|prepublishonly|preuninstall|uninstall|postuninstall)"\s{0,8}:/i;
/** composer runs these on install and update. */
const COMPOSER_HOOKS = /"((?:pre|post)-(?:install|update|autoload-dump|package-install|package-update|root-package-install|create-project)-cmd)"\s{0,8}:/i;
/** pyproject.toml sections and keys that run code at build time (every pip install of the folder builds it). */
const PYPROJECT_HOOKS =
  /^\s{0,8}(?:\[tool\.hatch\.[^\]\n]{0,120}hooks[^\]\n]{0,120}\]|\[tool\.pdm\.build\]|\[tool\.poetry\.build\]|backend-path\s{0,8}=|cmdclass\b|build-script\s{0,8}=|script\s{0,8}=\s{0,8}["'][^"'\n]{1,200}\.py["'])/i;
/** Cargo.toml: a build script. */
const CARGO_BUILD = /^\s{0,8}build\s{0,8}=\s{0,8}["'][^"'\n]{1,200}["']/;
/** A gemspec that builds native extensions. */
const GEM_EXTENSIONS = /\.extensions\s{0,8}=|\bextconf\.rb\b/;

type LineRule = { re: RegExp; what: (m: RegExpExecArray) => string };

const RULES_BY_NAME: Record<string, LineRule> = {
  'package.json': { re: NPM_LIFECYCLE, what: (m) => `npm's "${m[1]}" script` },
  'composer.json': { re: COMPOSER_HOOKS, what: (m) => `composer's "${m[1]}" hook` },
  'pyproject.toml': { re: PYPROJECT_HOOKS, what: () => 'a Python build hook' },
  'cargo.toml': { re: CARGO_BUILD, what: () => 'a Cargo build script' },
};

/** Manifests that run code on install whatever they hold. */
const ALWAYS = new Map([
  ['setup.py', 'setup.py runs as Python code when the folder is installed with pip.'],
  ['build.rs', 'build.rs runs as a program whenever the Rust package is built.'],
  ['binding.gyp', 'binding.gyp makes npm build native code when the package is installed.'],
  ['extconf.rb', 'extconf.rb runs as Ruby code when the gem is installed.'],
]);

export function installScriptFindings(path: string, lines: readonly string[], out: Findings): void {
  const base = baseName(path).toLowerCase();
  const always = ALWAYS.get(base);
  if (always !== undefined) {
    out.add('install-script', 'acts', path, null, path, always);
    return;
  }
  const rule = base.endsWith('.gemspec') ? { re: GEM_EXTENSIONS, what: () => 'native gem extensions' } : RULES_BY_NAME[base];
  if (rule === undefined) return;
  lines.forEach((line, i) => {
    const m = rule.re.exec(line.length > 4096 ? line.slice(0, 4096) : line);
    if (m !== null) out.add('install-script', 'acts', path, i + 1, line.trim(), `The package manifest runs ${rule.what(m)} on install, without the agent deciding.`);
  });
}
