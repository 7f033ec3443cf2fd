// Resolving a listed artifact URL (FORMATS.md §1.4, §2.4, §9.3). Pure: never fetches.

import { checkArtifactUrl } from '../net/url-safety';

export type ResolvedUrl = { ok: true; url: string } | { ok: false; code: string; message: string };

/** Whitespace (any Unicode space), control characters and the backslash. */
const FORBIDDEN_CHAR = /[\s\p{Cc}\\]/u;
/** The inside of a `__NAME__` placeholder, once the text is split on `__`. */
const PLACEHOLDER_NAME = /^[A-Z][A-Z0-9_]*$/;

/**
 * Finds an unexpanded template placeholder: `__NAME__`, `{{…}}` or `${…}`.
 * Uses only indexOf / split and anchored tests, so it is linear in the input.
 */
export function findPlaceholder(raw: string): string | null {
  const open = raw.indexOf('{{');
  if (open >= 0 && raw.indexOf('}}', open + 2) >= 0) return '{{…}}';
  const dollar = raw.indexOf('${');
  if (dollar >= 0 && raw.indexOf('}', dollar + 2) >= 0) return '${…}';
  // Interior parts sit between two `__` delimiters.
  const interior = raw.split('__').slice(1, -1);
  const name = interior.find((part) => PLACEHOLDER_NAME.test(part));
  return name === undefined ? null : `__${name}__`;
}

/**
 * Resolves `raw` against `base` (the listing document's final URL), removes the fragment,
 * and applies the artifact host and scheme rules for `origin`.
 * Codes: url-empty, url-bad-char, url-placeholder, url-unparseable, and those of checkArtifactUrl.
 */
export function resolveArtifactUrl(raw: string, base: string, origin: string): ResolvedUrl {
  if (raw.length === 0) return refused('url-empty', 'The skill URL is empty.');
  if (FORBIDDEN_CHAR.test(raw)) return refused('url-bad-char', 'The skill URL contains whitespace, a control character or a backslash.');
  const placeholder = findPlaceholder(raw);
  if (placeholder !== null) return refused('url-placeholder', `The skill URL contains the unexpanded template placeholder ${placeholder}; no request is made.`);
  let parsed: URL;
  try {
    parsed = new URL(raw, base);
  } catch {
    return refused('url-unparseable', 'The skill URL cannot be parsed as a URL.');
  }
  parsed.hash = '';
  const check = checkArtifactUrl(origin, parsed);
  if (!check.ok) return refused(check.code, check.message);
  return { ok: true, url: parsed.href };
}

function refused(code: string, message: string): ResolvedUrl {
  return { ok: false, code, message };
}
