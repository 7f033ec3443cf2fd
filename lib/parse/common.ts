// Small helpers shared by the discovery parsers. Reading untrusted JSON goes through
// `own()` so that inherited members (`constructor`, `__proto__`, …) are never seen as data.

import type { CandidateSource, Diagnostic, DiagnosticLevel } from '../types';
import type { SkillCandidate } from './candidate';

const HEX64 = /^[0-9a-fA-F]{64}$/;
const NAME_RULE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const SCOPE_RULE = /^[a-z][a-z0-9_-]*$/;

/** A plain JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object's own property `key`, or undefined. Never reads the prototype chain. */
export function own(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** The object's own string property `key`, or null. */
export function ownString(obj: Record<string, unknown>, key: string): string | null {
  const value = own(obj, key);
  return typeof value === 'string' ? value : null;
}

/** The object's own string property `key`; null when it is absent, and null after `wrongType()` when it is not a string. */
export function ownStringOr(obj: Record<string, unknown>, key: string, wrongType: () => void): string | null {
  if (!Object.hasOwn(obj, key)) return null;
  const value = obj[key];
  if (typeof value === 'string') return value;
  wrongType();
  return null;
}

/** 64 hex characters, either case. */
export function isHex64(value: unknown): value is string {
  return typeof value === 'string' && HEX64.test(value);
}

/** The agentskills name rule: 1–64 chars of lowercase ASCII letters and digits in hyphen-separated runs. */
export function followsNameRule(name: string): boolean {
  return name.length >= 1 && name.length <= 64 && NAME_RULE.test(name);
}

/** The Executable Skills `scope` rule. */
export function followsScopeRule(scope: string): boolean {
  return SCOPE_RULE.test(scope);
}

/** The URL's path (the resolved URL's pathname, else the raw text without its query and fragment). */
function urlPath(resolved: string | null, raw: string): string {
  if (resolved === null) return raw.split(/[?#]/)[0] as string;
  try {
    return new URL(resolved).pathname;
  } catch {
    return resolved;
  }
}

/** `archive` when the URL path ends `.zip` or `.tar.gz` (case-insensitive), else `skill-md`. */
export function inferType(resolved: string | null, raw: string): 'skill-md' | 'archive' {
  const lower = urlPath(resolved, raw).toLowerCase();
  return lower.endsWith('.zip') || lower.endsWith('.tar.gz') ? 'archive' : 'skill-md';
}

/** `s` percent-decoded, or as it is when it is not valid percent-encoding. */
export function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The last non-empty path segment of a URL (percent-decoded when possible), or null. */
export function lastUrlSegment(resolved: string | null, raw: string): string | null {
  const last = (urlPath(resolved, raw).split(/[?#]/)[0] as string)
    .split('/')
    .filter((s) => s.length > 0)
    .pop();
  return last === undefined ? null : decodeSafe(last);
}

/** True when `path`, resolved against `base`, is on `origin`. */
export function isSameOrigin(path: string, base: string, origin: string): boolean {
  try {
    return new URL(path, base).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

/** The executable tool of a listing: its path (expected on the origin) and its `tool_sha256` (ignored unless 64 hex). */
export function applyTool(c: SkillCandidate, tool: string | null, fields: Record<string, unknown>, base: string, origin: string, at: { url?: string; line?: number }): void {
  if (tool !== null) {
    c.tool = tool;
    if (!isSameOrigin(tool, base, origin)) c.diagnostics.push(diag('tool-not-same-origin', 'warning', 'The executable tool path is not on this origin.', at));
  }
  if (Object.hasOwn(fields, 'tool_sha256')) {
    const value = own(fields, 'tool_sha256');
    if (isHex64(value)) c.toolSha256 = value.toLowerCase();
    else c.diagnostics.push(diag('tool-sha256-invalid', 'warning', 'tool_sha256 is not 64 hexadecimal characters; it is ignored.', at));
  }
}

export function diag(code: string, level: DiagnosticLevel, message: string, extra?: { url?: string; line?: number }): Diagnostic {
  const d: Diagnostic = { code, level, message };
  if (extra?.url !== undefined) d.url = extra.url;
  if (extra?.line !== undefined) d.line = extra.line;
  return d;
}

/** A candidate with nothing known yet beyond where it was listed. */
export function blankCandidate(source: CandidateSource, position: number, rawUrl: string): SkillCandidate {
  return {
    source,
    position,
    rawUrl,
    url: null,
    type: 'skill-md',
    name: null,
    description: null,
    version: null,
    license: null,
    homepage: null,
    scope: null,
    tool: null,
    toolSha256: null,
    declared: [],
    signature: null,
    refusal: null,
    diagnostics: [],
  };
}
