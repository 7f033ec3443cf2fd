// The pre-flight check of "Export for upload": the rules the skill upload forms of the
// chat agents enforce, checked on the verified bytes before any file is made. A skill that fails
// gets one plain sentence per broken rule and no file, in the user's language. Nothing here edits
// the bytes to make them pass: what is exported is exactly what was verified (PRODUCT.md §3, "keep
// the verified bytes"). The names Windows and macOS cannot unpack are portable-names.ts.
import { t } from '../i18n';
import { parseFrontmatter } from '../parse/skill-md';
import { ROOT_SKILL_MD } from '../verify/archive';
import { formatNumber } from '../i18n/format';
import { portableProblems, reservedDeviceName, type PortableCode, type PortableFinding } from './portable-names';

/** One file of an archive skill besides its root SKILL.md, by its path inside the skill folder. */
export interface ExportFile {
  path: string;
  bytes: Uint8Array;
}

export type PreflightCode =
  | 'frontmatter-missing'
  | 'frontmatter-unreadable'
  | 'name-missing'
  | 'name-length'
  | 'name-characters'
  | 'name-edge-hyphen'
  | 'name-double-hyphen'
  | 'name-reserved'
  | 'description-missing'
  | 'description-empty'
  | 'description-length'
  | 'description-xml'
  | 'skill-md-duplicate'
  | 'too-many-files'
  | 'path-outside-folder'
  | PortableCode;

export interface PreflightProblem {
  code: PreflightCode;
  /** One plain sentence, shown to the user as it is. */
  message: string;
}

export type PreflightResult =
  /** `name` is the frontmatter name: the folder the ZIP holds is named after it. */
  { ok: true; name: string } | { ok: false; problems: PreflightProblem[] };

export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
/** Files in the skill folder, SKILL.md included. */
export const MAX_FILES = 200;

/** An XML (or HTML) tag: `<name …>`, `</name>` or `<name/>`. A lone `<` or `a < b` is not one. */
const XML_TAG = /<\/?[A-Za-z][A-Za-z0-9_.:-]*(\s[^<>]*)?\/?>/;

/** Characters as people count them (code points, not UTF-16 units). */
function length(s: string): number {
  return [...s].length;
}

function quoted(s: string, max = 60): string {
  const shown = length(s) > max ? `${[...s].slice(0, max).join('')}…` : s;
  return JSON.stringify(shown);
}

function nameProblems(name: string): PreflightProblem[] {
  const out: PreflightProblem[] = [];
  const n = length(name);
  if (n < 1 || n > MAX_NAME_LENGTH) out.push({ code: 'name-length', message: t('preflight_name_length', MAX_NAME_LENGTH, n) });
  if (n > 0 && !/^[a-z0-9-]*$/.test(name)) out.push({ code: 'name-characters', message: t('preflight_name_characters', quoted(name)) });
  if (name.startsWith('-') || name.endsWith('-')) out.push({ code: 'name-edge-hyphen', message: t('preflight_name_edge_hyphen', quoted(name)) });
  if (name.includes('--')) out.push({ code: 'name-double-hyphen', message: t('preflight_name_double_hyphen', quoted(name)) });
  // The export's folder and file are named after the skill: `con` passes the rules above.
  if (reservedDeviceName(name) !== null) out.push({ code: 'name-reserved', message: t('preflight_name_reserved', quoted(name)) });
  return out;
}

function descriptionProblems(description: string): PreflightProblem[] {
  const out: PreflightProblem[] = [];
  const n = length(description);
  if (description.trim() === '') out.push({ code: 'description-empty', message: t('preflight_description_empty') });
  if (n > MAX_DESCRIPTION_LENGTH) {
    out.push({ code: 'description-length', message: t('preflight_description_length', formatNumber(n), formatNumber(MAX_DESCRIPTION_LENGTH)) });
  }
  const tag = XML_TAG.exec(description);
  if (tag) out.push({ code: 'description-xml', message: t('preflight_description_xml', quoted(tag[0], 40)) });
  return out;
}

/** Would `path` stay inside the skill folder once placed under it? (The unpack refused such paths already.) */
function staysInside(path: string): boolean {
  if (path === '' || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  if (/^[A-Za-z]:/.test(path)) return false;
  return path.split('/').every((seg, i, all) => seg !== '..' && seg !== '.' && (seg !== '' || i === all.length - 1));
}

/** Up to three quoted items, then "…" for the rest. */
function listed(items: readonly string[]): string {
  return items.slice(0, 3).join(', ') + (items.length > 3 ? ', …' : '');
}

const PORTABLE_MESSAGE = {
  'path-reserved-name': 'preflight_path_reserved_name',
  'path-reserved-character': 'preflight_path_reserved_character',
  'path-control-character': 'preflight_path_control_character',
  'path-trailing-dot-space': 'preflight_path_trailing_dot_space',
} as const satisfies Record<PortableCode, string>;

/** One sentence per portability rule the paths break, naming the files and what in them breaks it. */
function portableSentences(paths: readonly string[]): PreflightProblem[] {
  // The path, and what in it breaks the rule (a name ending in a dot or space is the path's own segment).
  const shown = (f: PortableFinding): string => {
    if (f.code === 'path-trailing-dot-space') return quoted(f.path);
    return `${quoted(f.path)} (${f.code === 'path-control-character' ? f.detail : quoted(f.detail)})`;
  };
  return [...portableProblems(paths)].map(([code, findings]) => ({ code, message: t(PORTABLE_MESSAGE[code], listed(findings.map(shown))) }));
}

function fileProblems(files: readonly ExportFile[]): PreflightProblem[] {
  const out: PreflightProblem[] = [];
  const total = files.length + 1;
  if (total > MAX_FILES) out.push({ code: 'too-many-files', message: t('preflight_too_many_files', formatNumber(total), formatNumber(MAX_FILES)) });
  const others = files.filter((f) => (f.path.split('/').pop() ?? '').toLowerCase() === ROOT_SKILL_MD.toLowerCase());
  if (others.length > 0) out.push({ code: 'skill-md-duplicate', message: t('preflight_skill_md_duplicate', listed(others.map((f) => quoted(f.path)))) });
  const outside = files.filter((f) => !staysInside(f.path));
  if (outside.length > 0) out.push({ code: 'path-outside-folder', message: t('preflight_path_outside', quoted(outside[0]?.path ?? '')) });
  // Paths that stay inside the folder must also unpack on Windows and macOS.
  out.push(...portableSentences(files.filter((f) => staysInside(f.path)).map((f) => f.path)));
  return out;
}

/**
 * Checks the verified SKILL.md (and an archive's other verified files) against the upload rules.
 * The folder of the export is named after the frontmatter name, so "the name equals the folder
 * name" holds by construction once the name passes. Never throws.
 */
export function preflight(skillMd: Uint8Array, files: readonly ExportFile[] = []): PreflightResult {
  const problems: PreflightProblem[] = [];
  // The frontmatter is read after a UTF-8 byte order mark here, but the file does not start with
  // "---": an upload reads no frontmatter, and removing the mark would change the verified bytes.
  const bom = skillMd[0] === 0xef && skillMd[1] === 0xbb && skillMd[2] === 0xbf;
  const fm = parseFrontmatter(skillMd);
  if (bom) {
    problems.push({ code: 'frontmatter-missing', message: t('preflight_frontmatter_bom') });
  } else if (fm.data === null) {
    const missing = fm.diagnostics.some((d) => d.code === 'frontmatter-missing');
    const why = fm.diagnostics[0]?.message.replace(/\.$/, '') ?? t('preflight_frontmatter_not_mapping');
    problems.push(missing ? { code: 'frontmatter-missing', message: t('preflight_frontmatter_missing') } : { code: 'frontmatter-unreadable', message: t('preflight_frontmatter_unreadable', why) });
  }
  if (fm.data !== null) {
    if (fm.name === null) problems.push({ code: 'name-missing', message: t('preflight_name_missing') });
    else problems.push(...nameProblems(fm.name));
    if (fm.description === null) problems.push({ code: 'description-missing', message: t('preflight_description_missing') });
    else problems.push(...descriptionProblems(fm.description));
  }
  problems.push(...fileProblems(files));
  if (problems.length > 0 || fm.name === null) return { ok: false, problems };
  return { ok: true, name: fm.name };
}
