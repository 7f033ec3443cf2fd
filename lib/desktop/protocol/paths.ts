// File paths inside a mirrored skill: relative, `/`-separated, and safe to create as they are on
// Linux, macOS and Windows alike, so a skill that one machine accepts every machine accepts.
import { toolMetadataIn } from '../../review/tool-metadata';
import { checkEntryName, collisionKey } from '../../verify/archive-names';
import { MAX_PATH_LENGTH, MAX_SEGMENT_LENGTH, PROVENANCE_FILE } from './limits';

/** The version-control or tool metadata a path names (`.git`, `.hg`…, any spelling), or null: never placed in an agent folder. */
export const metadataIn = (path: string): string | null => toolMetadataIn(path);

/** Characters Windows refuses in a file name (besides controls, which checkEntryName refuses). */
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;
/** Device names Windows reserves, with or without an extension. */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;

/** True when Windows reserves the name as a device (`con`, `nul`, `com1`, `lpt1.txt`…): no file or folder may have it. */
export const isWindowsReserved = (segment: string): boolean => WINDOWS_RESERVED.test(segment);
/** Names the host uses for its own work inside a folder. */
const HOST_PREFIX = '.skillpin-';

export type PathCheck = { ok: true } | { ok: false; message: string };

/** Checks one file path of a skill; the message says what is wrong with it. */
export function checkSkillPath(path: string): PathCheck {
  if (typeof path !== 'string') return { ok: false, message: 'a file path is not a string' };
  if (path.length > MAX_PATH_LENGTH) return { ok: false, message: `a file path is longer than ${MAX_PATH_LENGTH} characters` };
  const metadata = toolMetadataIn(path);
  if (metadata !== null) {
    return {
      ok: false,
      message: `the file path ${JSON.stringify(path.slice(0, 200))} is version-control metadata (${metadata}), which can run commands once it sits in an agent folder, so Skillpin never hands it to desktop agents`,
    };
  }
  const entry = checkEntryName(path, false, 'file path');
  if (!entry.ok) return { ok: false, message: entry.message };
  if (path !== path.normalize('NFC')) return { ok: false, message: `the file path ${JSON.stringify(path)} is not in Unicode NFC form` };
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment.length > MAX_SEGMENT_LENGTH) return { ok: false, message: `a segment of ${JSON.stringify(path)} is longer than ${MAX_SEGMENT_LENGTH} characters` };
    if (WINDOWS_FORBIDDEN.test(segment)) return { ok: false, message: `the file path ${JSON.stringify(path)} holds a character Windows refuses (< > : " | ? *)` };
    if (isWindowsReserved(segment)) return { ok: false, message: `the file path ${JSON.stringify(path)} uses a device name Windows reserves` };
    if (segment.endsWith('.') || segment.endsWith(' ')) return { ok: false, message: `a segment of ${JSON.stringify(path)} ends with a dot or a space` };
    if (segment.toLowerCase().startsWith(HOST_PREFIX)) return { ok: false, message: `the file path ${JSON.stringify(path)} uses a name the host keeps for itself` };
  }
  if (segments.length === 1 && collisionKey(path) === collisionKey(PROVENANCE_FILE)) {
    return { ok: false, message: `a skill may not carry its own ${PROVENANCE_FILE}` };
  }
  return { ok: true };
}

/**
 * Checks a skill's whole list of paths: each path, no two equal after Unicode normalisation and
 * case folding (they would be one file on macOS and Windows), no file where another needs a
 * folder, and exactly one SKILL.md at the root.
 */
export function checkSkillPaths(paths: readonly string[]): PathCheck {
  const seen = new Map<string, string>();
  for (const path of paths) {
    const one = checkSkillPath(path);
    if (!one.ok) return one;
    const key = collisionKey(path);
    const before = seen.get(key);
    if (before !== undefined) return { ok: false, message: `the file paths ${JSON.stringify(before)} and ${JSON.stringify(path)} name the same file` };
    seen.set(key, path);
  }
  for (const [key, path] of seen) {
    const segments = key.split('/');
    for (let i = 1; i < segments.length; i++) {
      const folder = seen.get(segments.slice(0, i).join('/'));
      if (folder !== undefined) return { ok: false, message: `${JSON.stringify(folder)} is a file, but ${JSON.stringify(path)} needs it as a folder` };
    }
  }
  if (!paths.includes('SKILL.md')) return { ok: false, message: 'the skill has no SKILL.md at its root' };
  return { ok: true };
}

/** Files that make a skill carry scripts: anything under `scripts/`, or a file an interpreter or the system runs. */
const SCRIPT_EXTENSIONS = /\.(sh|bash|zsh|fish|ksh|csh|py|pyw|js|mjs|cjs|ts|mts|cts|rb|pl|pm|php|lua|r|ps1|psm1|bat|cmd|com|exe|dll|so|dylib|jar|vbs|wsf|applescript|scpt|command|appimage|bin|run)$/i;

export function isScriptPath(path: string): boolean {
  const first = path.split('/')[0] ?? '';
  return first.toLowerCase() === 'scripts' || first.toLowerCase() === 'bin' || SCRIPT_EXTENSIONS.test(path);
}
