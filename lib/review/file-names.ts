// What a file is by its path: the names tools run by themselves, the inert kinds of file, the
// scripts and programs by extension. Lower-case comparisons throughout.

/** Base names tools run or load by themselves when they work in a folder. */
const AUTO_RUN_NAMES = new Set(
  'conftest.py .envrc makefile gnumakefile sitecustomize.py usercustomize.py .npmrc .yarnrc .yarnrc.yml .pnpmfile.cjs .pre-commit-config.yaml lefthook.yml lefthook.yaml .lefthook.yml .mcp.json .pythonstartup pytest.ini'.split(
    ' ',
  ),
);

/** Folders whose files an editor, a hook manager or an agent reads and acts on (tasks, hooks, settings). */
const AUTO_RUN_FOLDERS = ['.vscode/', '.idea/', '.run/', '.husky/', '.githooks/', '.devcontainer/', '.claude/', '.cursor/', '.gemini/', '.codex/', '.windsurf/', 'hooks/'];

/** Extensions of plainly inert files: text, markup read as text, data, images, fonts, documents, media. */
const INERT = new Set(
  (
    'md markdown txt text rst adoc asciidoc org json jsonc json5 jsonl ndjson geojson yaml yml toml csv tsv xml ini cfg conf properties lock log ' +
    'diff patch png jpg jpeg gif webp bmp ico avif tif tiff heic svg woff woff2 ttf otf eot pdf mp3 wav ogg flac m4a mp4 webm mov css ' +
    'j2 jinja jinja2 tmpl tpl hbs mustache template docx xlsx pptx odt ods odp epub sig asc pub pem crt license sha256 bib'
  ).split(' '),
);

/** Extensions of scripts an interpreter runs and of programs the system runs. */
const EXECUTABLE = new Set(
  (
    'sh bash zsh fish ksh csh tcsh py pyw pyz js mjs cjs ts mts cts rb pl pm php lua r ps1 psm1 psd1 bat cmd com exe dll so dylib jar ' +
    'vbs vbe wsf wsh hta applescript scpt command tool appimage bin run msi pkg deb rpm apk scr cpl elf out'
  ).split(' '),
);

/** Extension-less names that are build or task files (run when their tool is). */
const TASK_NAMES = new Set(['dockerfile', 'containerfile', 'procfile', 'rakefile', 'gemfile', 'vagrantfile', 'jenkinsfile', 'justfile', 'taskfile', 'brewfile', 'podfile', 'fastfile']);

export function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return path.slice(slash + 1);
}

/** The lower-case extension (after the last dot of the base name, not a leading one), or ''. */
export function extensionOf(path: string): string {
  const base = baseName(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** Why tools would run this file by themselves, or null. */
export function autoRunReason(path: string): string | null {
  const lower = path.toLowerCase();
  const base = baseName(lower);
  if (AUTO_RUN_NAMES.has(base)) return base;
  if (base.endsWith('.pth')) return 'a Python .pth file';
  for (const folder of AUTO_RUN_FOLDERS) {
    if (lower.startsWith(folder) || lower.includes(`/${folder}`)) {
      if (folder === 'hooks/' && !GIT_HOOKS.has(base)) continue;
      return folder.slice(0, -1);
    }
  }
  return null;
}

const GIT_HOOKS = new Set(
  'pre-commit prepare-commit-msg commit-msg post-commit pre-rebase post-checkout post-merge pre-push pre-auto-gc post-rewrite fsmonitor-watchman pre-receive post-receive update post-update reference-transaction push-to-checkout'.split(
    ' ',
  ),
);

export function isInertExtension(ext: string): boolean {
  return INERT.has(ext);
}

export function isExecutableExtension(ext: string): boolean {
  return EXECUTABLE.has(ext);
}

export function isTaskName(base: string): boolean {
  return TASK_NAMES.has(base.toLowerCase());
}

/** The first dot-file or dot-folder segment of a path, or null. */
export function dotSegment(path: string): string | null {
  for (const segment of path.split('/')) if (segment.startsWith('.') && segment.length > 1) return segment;
  return null;
}
