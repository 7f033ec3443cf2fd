// Folder names in an agent's skills folder (docs/desktop.md): the skill's frontmatter name
// when it follows the Agent Skills rule, else a safe slug; a name another origin's skill already
// holds gets the origin's host added, then a number.
import { followsNameRule } from '../../parse/common';
import { urlOf } from '../../origin';
import { isWindowsReserved } from './paths';

const MAX_NAME = 64;

/** Lowercase letters and digits in hyphen-separated runs, at most `max` characters; '' when nothing is left. */
export function slug(text: string, max = MAX_NAME): string {
  const plain = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return plain.slice(0, max).replace(/-+$/g, '');
}

/** A name Windows reserves as a device (`con`, `nul`, `com1`…) gets `-skill` added, so the folder is the same on every platform. */
function portable(name: string): string {
  return isWindowsReserved(name) ? `${name}-skill` : name;
}

/** The folder a skill asks for: its frontmatter name if valid, else a slug of its display name, else `skill`; never a Windows device name. */
export function baseFolderName(frontmatterName: string | null, displayName: string): string {
  if (frontmatterName !== null && followsNameRule(frontmatterName)) return portable(frontmatterName);
  return portable(slug(frontmatterName ?? '') || slug(displayName) || 'skill');
}

/**
 * The names to try in order: the base, then `<base>-<host>`, then `<base>-<host>-2`, `-3`, …
 * (each cut to 64 characters so it still follows the name rule).
 */
export function folderCandidates(base: string, origin: string, count = 20): string[] {
  // An origin the protocol accepted always parses; `origin` stands in for a host anyway.
  const host = slug(urlOf(origin)?.host ?? '') || 'origin';
  const out = [base];
  for (let n = 1; out.length < count; n++) {
    const tail = n === 1 ? `-${host}` : `-${host}-${n}`;
    const keep = Math.max(1, MAX_NAME - tail.length);
    const head = base.slice(0, keep).replace(/-+$/g, '') || 's';
    out.push(`${head}${tail}`.slice(0, MAX_NAME).replace(/-+$/g, ''));
  }
  return [...new Set(out)];
}
