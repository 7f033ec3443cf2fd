// What each file of a skill is (PRODUCT.md §6.1): tool metadata (`.git/…`), files tools run by
// themselves, other dot-files, scripts and programs by content (shebang, ELF, Mach-O, PE, wasm)
// as well as by name, and anything not plainly inert (source code, unknown binaries). Names are
// compared in lower case throughout.
import type { Findings } from './findings';
import { looksBinary } from './text-of';
import { toolMetadataIn } from './tool-metadata';

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
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The lower-case extension (after the last dot of the base name, not a leading one), or ''. */
export function extensionOf(path: string): string {
  const base = baseName(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** Why tools would run this file by themselves, or null. */
function autoRunReason(path: string): string | null {
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

/** The first dot-file or dot-folder segment of a path, or null. */
function dotSegment(path: string): string | null {
  return path.split('/').find((segment) => segment.startsWith('.') && segment.length > 1) ?? null;
}

/** What the first bytes say the file is: a script (shebang) or a program format, or null. */
function programMagic(b: Uint8Array): string | null {
  const at = (i: number): number => b[i] ?? -1;
  if (at(0) === 0x23 && at(1) === 0x21) return 'a script (it starts with #!)';
  if (at(0) === 0x7f && at(1) === 0x45 && at(2) === 0x4c && at(3) === 0x46) return 'a Linux program (ELF)';
  const m = ((at(0) << 24) | (at(1) << 16) | (at(2) << 8) | at(3)) >>> 0;
  if (m === 0xfeedface || m === 0xfeedfacf || m === 0xcefaedfe || m === 0xcffaedfe) return 'a macOS program (Mach-O)';
  if (m === 0xcafebabe || m === 0xbebafeca) return 'a macOS universal program or Java class';
  if (at(0) === 0x4d && at(1) === 0x5a) return 'a Windows program (PE)';
  if (at(0) === 0x00 && at(1) === 0x61 && at(2) === 0x73 && at(3) === 0x6d) return 'a WebAssembly module';
  return null;
}

/** True for a file the rules read as a document (markdown, plain text): where chat risks are looked for. */
export function isDocument(path: string): boolean {
  const ext = extensionOf(path);
  return ext === 'md' || ext === 'markdown' || ext === 'mdx' || ext === 'txt' || ext === 'text' || ext === 'rst' || ext === '';
}

/** Findings about the file as a whole: what it is, by its path and its first bytes. */
export function fileKindFindings(path: string, bytes: Uint8Array, out: Findings): void {
  const meta = toolMetadataIn(path);
  if (meta !== null) {
    out.add('tool-metadata', 'acts', path, null, path, `Version-control or tool metadata (${meta}) can run commands the next time a tool looks at the folder; it is never written to an agent folder.`);
    return;
  }
  const auto = autoRunReason(path);
  if (auto !== null) {
    out.add('auto-run-file', 'acts', path, null, path, `A file that tools run or load by themselves (${auto}), without the agent deciding.`);
  } else {
    const dot = dotSegment(path);
    if (dot !== null) out.add('dot-file', 'can-act', path, null, path, `A hidden dot-file or dot-folder (${dot}) that tools may read and act on.`);
  }
  const magic = programMagic(bytes);
  const ext = extensionOf(path);
  if (magic !== null) {
    out.add('executable', 'can-act', path, 1, path, `The file is ${magic}: it can run on your computer.`);
  } else if (EXECUTABLE.has(ext)) {
    out.add('executable', 'can-act', path, null, path, `A script or program (.${ext}) that can run on your computer.`);
  } else if (path !== 'SKILL.md' && auto === null && !isInert(path, ext, bytes)) {
    const what =
      ext === '' ? 'A file that is not plain text or data (a program, or of an unknown kind): something may run it.' : `A .${ext} file is code or of a kind that may run, not plain text or data.`;
    out.add('code-file', 'can-act', path, null, path, what);
  }
}

function isInert(path: string, ext: string, bytes: Uint8Array): boolean {
  if (ext === '') return !TASK_NAMES.has(baseName(path).toLowerCase()) && !looksBinary(bytes);
  return INERT.has(ext);
}
