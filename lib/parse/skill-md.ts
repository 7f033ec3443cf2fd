// SKILL.md frontmatter (FORMATS.md §3). Works on a decoded copy: the verified bytes are
// never touched. Every failure is a warning; nothing here changes a skill's status.

import { parseDocument } from 'yaml';
import { DOCUMENTS, type Diagnostic } from '../types';
import type { SkillCandidate } from './candidate';
import { decodeUtf8 } from './decode';
import { simpleFrontmatter } from './frontmatter-simple';
import { diag, followsNameRule, isJsonObject, ownString } from './common';

export interface Frontmatter {
  /** The parsed mapping, or null when absent or unparseable. */
  data: Record<string, unknown> | null;
  name: string | null;
  description: string | null;
  version: string | null;
  license: string | null;
  compatibility: string | null;
  /** Non-string top-level version (an error for snapshot-v1). */
  versionIsNonString: boolean;
  diagnostics: Diagnostic[];
}

/**
 * Largest frontmatter block (UTF-8 bytes between the delimiters) that is parsed. Real
 * frontmatter is a few hundred bytes (22 lines at most in the corpus); 16 KiB leaves room
 * for a 1024-character description and metadata while bounding YAML parse time (the
 * parser's duplicate-key check grows with the square of the key count).
 */
export const FRONTMATTER_MAX_BYTES = 16 * 1024;
/** Largest number of alias expansions accepted; alias bombs are refused well before harm. */
export const FRONTMATTER_MAX_ALIASES = 50;

const encoder = new TextEncoder();

function result(diagnostics: Diagnostic[]): Frontmatter {
  return { data: null, name: null, description: null, version: null, license: null, compatibility: null, versionIsNonString: false, diagnostics };
}

type Block = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic };

/**
 * Finds the frontmatter: the first line is exactly `---` (CR LF or LF), and it ends at the
 * next line that is exactly `---`. Scans line by line and stops once the size cap is passed.
 */
function findBlock(text: string): Block {
  const firstEnd = lineEnd(text, 0);
  if (text.slice(0, firstEnd.end) !== '---') {
    return { ok: false, diagnostic: diag('frontmatter-missing', 'warning', 'The SKILL.md has no frontmatter (it does not start with a "---" line).') };
  }
  const bodyStart = firstEnd.next;
  let pos = bodyStart;
  while (pos < text.length) {
    if (pos - bodyStart > FRONTMATTER_MAX_BYTES) return { ok: false, diagnostic: tooLarge() };
    const { end, next } = lineEnd(text, pos);
    if (end - pos === 3 && text.startsWith('---', pos)) {
      const block = text.slice(bodyStart, pos);
      if (encoder.encode(block).length > FRONTMATTER_MAX_BYTES) return { ok: false, diagnostic: tooLarge() };
      return { ok: true, text: block };
    }
    pos = next;
  }
  return { ok: false, diagnostic: diag('frontmatter-unterminated', 'warning', 'The frontmatter has no closing "---" line.') };
}

function tooLarge(): Diagnostic {
  return diag('frontmatter-too-large', 'warning', `The frontmatter is larger than ${FRONTMATTER_MAX_BYTES} bytes; it is not parsed.`);
}

/** End of the line starting at `from` (excluding CR LF / LF / CR) and the start of the next. */
function lineEnd(text: string, from: number): { end: number; next: number } {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) return { end: i, next: i + 1 };
    if (c === 0x0d) return { end: i, next: text.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1 };
    i += 1;
  }
  return { end: i, next: i };
}

function firstLine(message: string): string {
  return message.split('\n')[0] as string;
}

/** Parses the YAML frontmatter of SKILL.md bytes. Never throws. */
export function parseFrontmatter(bytes: Uint8Array): Frontmatter {
  return parseFrontmatterText(decodeUtf8(bytes));
}

/** Parses the YAML frontmatter of a SKILL.md already decoded with decodeUtf8. Never throws. */
export function parseFrontmatterText(text: string): Frontmatter {
  const diagnostics: Diagnostic[] = [];
  const block = findBlock(text);
  if (!block.ok) return result([block.diagnostic]);

  // The common simple form is read directly; anything else goes through the YAML parser.
  let value: unknown = simpleFrontmatter(block.text);
  if (value === null) {
    try {
      const doc = parseDocument(block.text, { schema: 'core', customTags: [], uniqueKeys: true, merge: false, prettyErrors: false });
      if (doc.errors.length > 0) {
        const out = result(diagnostics);
        for (const error of doc.errors) {
          const duplicate = error.code === 'DUPLICATE_KEY';
          const code = duplicate ? 'frontmatter-duplicate-key' : 'frontmatter-yaml-error';
          const problem = duplicate ? 'Duplicate key in the frontmatter' : 'The frontmatter is not valid YAML';
          out.diagnostics.push(diag(code, 'warning', `${problem}: ${firstLine(error.message)}`));
        }
        return out;
      }
      for (const warning of doc.warnings) {
        diagnostics.push(diag('frontmatter-yaml-warning', 'warning', `Frontmatter: ${firstLine(warning.message)}`));
      }
      value = doc.toJS({ maxAliasCount: FRONTMATTER_MAX_ALIASES });
    } catch (error) {
      if (error instanceof ReferenceError) diagnostics.push(diag('frontmatter-alias-limit', 'warning', 'The frontmatter expands too many aliases; it is not used.'));
      else diagnostics.push(diag('frontmatter-yaml-error', 'warning', 'The frontmatter could not be parsed as YAML.'));
      return result(diagnostics);
    }
  }

  if (!isJsonObject(value)) {
    diagnostics.push(diag('frontmatter-not-mapping', 'warning', 'The frontmatter is not a YAML mapping.'));
    return result(diagnostics);
  }
  // A null-prototype copy, so that no key can reach a prototype.
  const data: Record<string, unknown> = Object.assign(Object.create(null), value);
  const out = result(diagnostics);
  out.data = data;
  for (const key of ['name', 'description', 'version', 'license', 'compatibility'] as const) out[key] = ownString(data, key);
  out.versionIsNonString = Object.hasOwn(data, 'version') && typeof data.version !== 'string';

  if (out.name === null) {
    diagnostics.push(diag('frontmatter-name-missing', 'warning', 'The frontmatter has no string "name".'));
  } else if (!followsNameRule(out.name)) {
    diagnostics.push(diag('frontmatter-name-rule', 'warning', 'The name does not follow the agentskills rule (1–64 of a-z, 0-9 and single hyphens).'));
  }
  if (out.description === null) {
    diagnostics.push(diag('frontmatter-description-missing', 'warning', 'The frontmatter has no string "description".'));
  } else if (out.description.length < 1 || out.description.length > 1024) {
    diagnostics.push(diag('frontmatter-description-length', 'warning', 'The description is not 1–1024 characters long.'));
  }
  if (out.compatibility !== null && (out.compatibility.length < 1 || out.compatibility.length > 500)) {
    diagnostics.push(diag('frontmatter-compatibility-length', 'warning', 'The compatibility field is not 1–500 characters long.'));
  }
  if (out.versionIsNonString) diagnostics.push(diag('frontmatter-version-not-string', 'warning', 'The top-level "version" is not a string.'));
  return out;
}

function normalize(text: string): string {
  return text.normalize('NFC').trim();
}

/**
 * Compares the frontmatter name and description with what the discovery documents said,
 * after NFC and trimming. Differences are warnings only. A name the index did not state
 * (shown from `id`/`title`/`label` or the URL) is not compared.
 */
export function compareMetadata(fm: Frontmatter, candidates: SkillCandidate[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const c of candidates) {
    const at = { url: c.url ?? undefined };
    const nameWasStated = c.source === 'llms-txt' || !c.diagnostics.some((d) => d.code === 'index-name-missing');
    if (fm.name !== null && c.name !== null && nameWasStated && normalize(fm.name) !== normalize(c.name)) {
      out.push(diag('name-differs', 'warning', `The SKILL.md name "${fm.name}" differs from "${c.name}" in ${DOCUMENTS[c.source].title}.`, at));
    }
    if (fm.description !== null && c.description !== null && c.description.trim() !== '' && normalize(fm.description) !== normalize(c.description)) {
      out.push(diag('description-differs', 'warning', `The SKILL.md description differs from the one in ${DOCUMENTS[c.source].title}.`, at));
    }
  }
  return out;
}

/** The diagnostics of a frontmatter block that was started but could not be read. */
export const UNREADABLE = new Set(['frontmatter-unterminated', 'frontmatter-too-large', 'frontmatter-duplicate-key', 'frontmatter-yaml-error', 'frontmatter-alias-limit', 'frontmatter-not-mapping']);

/**
 * A SKILL.md that starts a frontmatter block Skillpin cannot read: what it grants is unknown, so it
 * is taken as granting tools (PRODUCT.md §6.1: the check fails closed).
 */
export function frontmatterUnreadable(fm: Pick<Frontmatter, 'data' | 'diagnostics'>): boolean {
  return fm.data === null && fm.diagnostics.some((d) => UNREADABLE.has(d.code));
}
