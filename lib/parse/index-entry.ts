// One entry of a skill index, by shape (FORMATS.md §2.3–2.5).

import type { SkillCandidate } from './candidate';
import { applyTool, blankCandidate, diag, followsNameRule, followsScopeRule, inferType, isHex64, lastUrlSegment, own, ownString, ownStringOr } from './common';
import { resolveArtifactUrl } from './resolve-url';

export interface EntryContext {
  finalUrl: string;
  origin: string;
  source: 'index' | 'legacy-index';
}

type Entry = Record<string, unknown>;

const DIGEST = /^sha256:[0-9a-fA-F]{64}$/;
const NAME_KEYS = ['name', 'id', 'title', 'label'] as const;

function refuse(c: SkillCandidate, status: 'invalid' | 'unsupported', code: string, message: string): void {
  // The first refusal recorded is the one FORMATS.md §10 puts first; callers check
  // `unsupported` conditions before `invalid` ones. Later problems stay as diagnostics.
  if (c.refusal === null) c.refusal = { status, code, message };
  else c.diagnostics.push(diag(code, 'error', message, { url: c.url ?? undefined }));
}

/** `name`, else `id`/`title`/`label`; null when none is a string. */
function declaredName(entry: Entry): { name: string | null; from: string | null } {
  for (const key of NAME_KEYS) {
    const value = ownString(entry, key);
    if (value !== null) return { name: value, from: key };
  }
  return { name: null, from: null };
}

/** Display-only strings shared by every shape. */
function readDisplay(c: SkillCandidate, entry: Entry): void {
  for (const key of ['description', 'version', 'license', 'homepage'] as const) c[key] = ownString(entry, key);
}

function readTool(c: SkillCandidate, entry: Entry, ctx: EntryContext): void {
  const at = { url: c.url ?? undefined };
  applyTool(c, ownString(entry, 'tool'), entry, ctx.finalUrl, ctx.origin, at);
  const scope = ownString(entry, 'scope');
  if (scope !== null) {
    c.scope = scope;
    if (!followsScopeRule(scope)) c.diagnostics.push(diag('index-scope-invalid', 'warning', `The scope "${scope}" does not match ^[a-z][a-z0-9_-]*$.`, at));
  }
}

/** A v0.2-style entry with a string `url` (FORMATS.md §2.4). */
export function readUrlEntry(entry: Entry, position: number, ctx: EntryContext): SkillCandidate {
  const raw = ownString(entry, 'url') ?? '';
  const c = blankCandidate(ctx.source, position, raw);
  readDisplay(c, entry);

  const resolved = resolveArtifactUrl(raw, ctx.finalUrl, ctx.origin);
  if (resolved.ok) c.url = resolved.url;
  const at = { url: c.url ?? undefined };

  // 1. unsupported: the type.
  const type = own(entry, 'type');
  const typeStated = type === 'skill-md' || type === 'archive';
  c.type = typeStated ? type : inferType(c.url, raw);
  if (!typeStated && Object.hasOwn(entry, 'type')) {
    const shown = typeof type === 'string' ? `"${type}"` : `a ${type === null ? 'null' : typeof type} value`;
    refuse(c, 'unsupported', 'index-type-unsupported', `The entry type ${shown} is not skill-md or archive; it is never fetched.`);
  }

  // 2. invalid: the URL, then the declared digests.
  if (!resolved.ok) refuse(c, 'invalid', resolved.code, resolved.message);

  if (Object.hasOwn(entry, 'digest')) {
    const value = own(entry, 'digest');
    if (typeof value === 'string' && DIGEST.test(value)) c.declared.push({ source: ctx.source, field: 'index-digest', hex: value.slice(7).toLowerCase() });
    else refuse(c, 'invalid', 'index-digest-invalid', 'The digest is not "sha256:" followed by 64 hexadecimal characters.');
  }
  if (Object.hasOwn(entry, 'sha256')) {
    const value = own(entry, 'sha256');
    if (isHex64(value)) c.declared.push({ source: ctx.source, field: 'index-sha256', hex: value.toLowerCase() });
    else refuse(c, 'invalid', 'index-sha256-invalid', 'The sha256 is not 64 hexadecimal characters (placeholders are refused).');
  }

  c.signature = ownStringOr(entry, 'signature', () => c.diagnostics.push(diag('index-signature-type', 'warning', 'The signature is not a string; it is ignored.', at)));
  readTool(c, entry, ctx);

  const { name, from } = declaredName(entry);
  if (name !== null) {
    c.name = name;
    if (from !== 'name') c.diagnostics.push(diag('index-name-missing', 'info', `The entry has no "name"; its "${from}" is shown.`, at));
  } else {
    c.name = lastUrlSegment(c.url, raw);
    c.diagnostics.push(diag('index-name-missing', 'info', 'The entry has no "name"; the last URL segment is shown.', at));
  }
  if (from === 'name' && !followsNameRule(name ?? '')) {
    c.diagnostics.push(diag('index-name-rule', 'warning', 'The name does not follow the agentskills rule (1–64 of a-z, 0-9 and single hyphens).', at));
  }
  return c;
}

// ---------------------------------------------------------------------------
// v0.1 (FORMATS.md §2.5)
// ---------------------------------------------------------------------------

/**
 * One safe path segment: not empty, not `.`/`..`, no `/ \ ? # %`, no control characters and no
 * lone surrogate (JSON can spell one as `\udfff`; it has no UTF-8 form, so it cannot be
 * percent-encoded into a URL and encodeURIComponent would throw).
 */
function v01NameProblem(name: string): string | null {
  if (name.length === 0) return 'the name is empty';
  if (name === '.' || name === '..') return 'the name is "." or ".."';
  if (/[/\\?#%]/.test(name)) return 'the name contains one of / \\ ? # %';
  if (/\p{Cc}/u.test(name)) return 'the name contains a control character';
  if (/\p{Cs}/u.test(name)) return 'the name contains a lone surrogate (not Unicode text)';
  return null;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** A character outside printable ASCII, or one of `\ ? # [ ]`. */
const V01_BAD_CHAR = /[^\x20-\x7e]|[\\?#[\]]/;

/** Relative, `/`-separated, no `..` segment, printable ASCII without `\ ? # [ ]`. */
function v01PathProblem(path: string): { code: string; message: string } | null {
  if (path.length === 0) return { code: 'v01-file-empty', message: 'A path in "files" is empty.' };
  if (path.startsWith('/') || SCHEME.test(path)) {
    return { code: 'v01-file-not-relative', message: `The path "${path}" in "files" is not relative (absolute path or URL).` };
  }
  if (V01_BAD_CHAR.test(path)) {
    return { code: 'v01-file-bad-char', message: `The path "${path}" in "files" has a character outside printable ASCII or one of \\ ? # [ ].` };
  }
  if (path.split('/').includes('..')) return { code: 'v01-file-dot-dot', message: `The path "${path}" in "files" contains "..".` };
  return null;
}

/** A v0.1 entry: `name` plus `files` (array of strings), no `url`. */
export function readV01Entry(entry: Entry, position: number, ctx: EntryContext): SkillCandidate {
  const name = own(entry, 'name');
  const nameText = typeof name === 'string' ? name : null;
  const nameProblem = nameText === null ? 'the name is missing or not a string' : v01NameProblem(nameText);
  // A name with a lone surrogate has no encoded form: its raw URL stays empty (it is refused below).
  const encodable = nameText !== null && !/\p{Cs}/u.test(nameText);
  const rawUrl = encodable ? `${encodeURIComponent(nameText)}/SKILL.md` : '';
  const c = blankCandidate(ctx.source, position, rawUrl);
  readDisplay(c, entry);
  c.name = nameText;

  if (nameProblem !== null) {
    refuse(c, 'invalid', 'v01-name-invalid', `v0.1 entry: ${nameProblem}, so it is not one safe path segment.`);
  } else {
    const resolved = resolveArtifactUrl(rawUrl, ctx.finalUrl, ctx.origin);
    if (resolved.ok) c.url = resolved.url;
    else refuse(c, 'invalid', resolved.code, resolved.message);
  }

  const files = own(entry, 'files');
  const list = Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string') : [];
  if (list.length === 0) {
    refuse(c, 'invalid', 'v01-files-empty', 'v0.1 entry: "files" is empty.');
  } else {
    const problem = list.map(v01PathProblem).find((p) => p !== null);
    if (problem) refuse(c, 'invalid', problem.code, `v0.1 entry: ${problem.message}`);
    if (!list.includes('SKILL.md')) refuse(c, 'invalid', 'v01-files-no-skill-md', 'v0.1 entry: "files" does not list exactly "SKILL.md".');
  }

  if (Object.hasOwn(entry, 'digest') || Object.hasOwn(entry, 'sha256')) {
    const message = 'A v0.1 entry carries no digest by definition; the digest field is ignored.';
    c.diagnostics.push(diag('index-v01-digest-ignored', 'info', message, { url: c.url ?? undefined }));
  }
  return c;
}

// ---------------------------------------------------------------------------
// Superseded draft and custom shapes: unsupported, never fetched
// ---------------------------------------------------------------------------

export function readDraftOrCustomEntry(entry: Entry, position: number, shape: 'draft' | 'custom', ctx: EntryContext): SkillCandidate {
  const rawUrl = ownString(entry, 'path') ?? '';
  const c = blankCandidate(ctx.source, position, rawUrl);
  readDisplay(c, entry);
  c.name = declaredName(entry).name;
  if (shape === 'draft') {
    refuse(c, 'unsupported', 'index-draft-files-objects', 'The entry uses "files" of {path, digest} objects (superseded 2026-02-13 draft); it is never fetched.');
  } else {
    refuse(c, 'unsupported', 'index-custom-shape', 'The entry has neither a "url" nor a v0.1 "files" list; it is never fetched.');
  }
  return c;
}
