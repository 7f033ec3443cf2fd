// What each file of a skill is (PRODUCT.md §6.1): tool metadata (`.git/…`), files tools run by
// themselves, other dot-files, scripts and programs by content (shebang, ELF, Mach-O, PE, wasm)
// as well as by name, and anything not plainly inert (source code, unknown binaries).
import type { Findings } from './findings';
import { autoRunReason, baseName, dotSegment, extensionOf, isExecutableExtension, isInertExtension, isTaskName } from './file-names';
import { looksBinary } from './text-of';
import { toolMetadataIn } from './tool-metadata';

/** What the first bytes say the file is: a script (shebang) or a program format, or null. */
export function programMagic(b: Uint8Array): string | null {
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
  } else if (isExecutableExtension(ext)) {
    out.add('executable', 'can-act', path, null, path, `A script or program (.${ext}) that can run on your computer.`);
  } else if (path !== 'SKILL.md' && auto === null && !isInert(path, ext, bytes)) {
    const what =
      ext === '' ? 'A file that is not plain text or data (a program, or of an unknown kind): something may run it.' : `A .${ext} file is code or of a kind that may run, not plain text or data.`;
    out.add('code-file', 'can-act', path, null, path, what);
  }
}

function isInert(path: string, ext: string, bytes: Uint8Array): boolean {
  if (ext === '') return !isTaskName(baseName(path)) && !looksBinary(bytes);
  return isInertExtension(ext);
}
