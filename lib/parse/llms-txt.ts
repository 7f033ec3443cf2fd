// The `## Skills` section of /llms.txt (FORMATS.md §1). One pass over the lines; the
// content is untrusted text and is only ever read, never rendered.

import type { Diagnostic } from '../types';
import type { SkillCandidate } from './candidate';
import { decodeUtf8, splitLines } from './decode';
import { applyTool, blankCandidate, diag, followsScopeRule, inferType, isHex64, isJsonObject, own, ownStringOr } from './common';
import { fenceCloses, fenceOpen, isSectionEnd, isSkillsHeading, scanComment, scanDescription, scanItem, type Fence } from './llms-line';
import { findDuplicateKeys } from './json-dupes';
import { resolveArtifactUrl } from './resolve-url';

export interface ParsedLlmsTxt {
  /** True when at least one `## Skills` section exists. */
  hasSkillsSection: boolean;
  candidates: SkillCandidate[];
  diagnostics: Diagnostic[];
}

const DISPLAY_KEYS = ['version', 'license', 'homepage', 'requires'] as const;

/** Reads the inline comment (FORMATS.md §1.3), a JSON object, and applies its keys to a candidate. */
function applyComment(c: SkillCandidate, json: string, line: number, base: string, origin: string): void {
  const at = { line, url: c.url ?? undefined };
  let meta: unknown;
  try {
    meta = JSON.parse(json);
  } catch {
    c.diagnostics.push(diag('llms-comment-invalid-json', 'warning', 'The <!-- skill: … --> comment is not valid JSON; it is ignored.', at));
    return;
  }
  if (!isJsonObject(meta)) {
    c.diagnostics.push(diag('llms-comment-not-object', 'warning', 'The <!-- skill: … --> comment is not a JSON object; it is ignored.', at));
    return;
  }
  for (const dup of findDuplicateKeys(json, 5)) {
    c.diagnostics.push(diag('llms-comment-duplicate-key', 'warning', `The comment repeats the key "${dup.key}"; the last value is used.`, at));
  }
  // A comment key's string value; null when it is absent or not a string (which is reported).
  const str = (key: string): string | null =>
    ownStringOr(meta, key, () => c.diagnostics.push(diag('llms-comment-key-type', 'warning', `The comment key "${key}" is not a string; it is ignored.`, at)));
  for (const key of DISPLAY_KEYS) {
    const value = str(key);
    if (value !== null && key !== 'requires') c[key] = value;
  }

  if (Object.hasOwn(meta, 'sha256')) {
    const value = own(meta, 'sha256');
    if (isHex64(value)) {
      c.declared.push({ source: 'llms-txt', field: 'inline-sha256', hex: value.toLowerCase() });
    } else {
      const message = 'The inline sha256 is not 64 hexadecimal characters; the skill is invalid and is not fetched.';
      c.diagnostics.push(diag('llms-sha256-invalid', 'error', message, at));
      if (c.refusal === null) c.refusal = { status: 'invalid', code: 'llms-sha256-invalid', message };
    }
  }

  const scope = str('scope');
  if (scope !== null) {
    c.scope = scope;
    if (!followsScopeRule(scope)) c.diagnostics.push(diag('llms-scope-invalid', 'warning', `The scope "${scope}" does not match ^[a-z][a-z0-9_-]*$.`, at));
  }
  applyTool(c, str('tool'), meta, base, origin, at);
}

/** Builds a candidate from one item line, or returns a document diagnostic when it is skipped. */
function readItem(text: string, line: number, base: string, origin: string): SkillCandidate | Diagnostic | null {
  const scan = scanItem(text);
  switch (scan.kind) {
    case 'not-bullet':
      return null;
    case 'no-link':
      return diag('llms-item-no-link', 'warning', 'A list item in ## Skills has no [title](url) link; it is skipped.', { line });
    case 'bare-url':
      return diag('llms-item-bare-url', 'warning', 'A list item in ## Skills is a bare URL, not a [title](url) link; it is skipped.', { line });
    case 'malformed':
      return diag('llms-item-malformed', 'warning', `A list item in ## Skills is skipped: ${scan.reason}.`, { line });
    case 'item':
      break;
  }

  const comment = scanComment(scan.rest);
  const beforeComment = comment.kind === 'none' ? scan.rest : comment.before;
  const description = scanDescription(beforeComment);
  if (description === null) {
    return diag('llms-item-malformed', 'warning', 'A list item in ## Skills is skipped: the link is not followed by ":", " -", " –", " —" or the end of the line.', { line });
  }

  const c = blankCandidate('llms-txt', line, scan.url);
  const resolved = resolveArtifactUrl(scan.url, base, origin);
  if (resolved.ok) c.url = resolved.url;
  else c.refusal = { status: 'invalid', code: resolved.code, message: resolved.message };
  const at = { line, url: c.url ?? undefined };
  c.type = inferType(c.url, scan.url);

  const title = scan.title.trim();
  c.name = title.length > 0 ? title : null;
  if (c.name === null) c.diagnostics.push(diag('llms-item-empty-title', 'warning', 'The link title is empty.', at));
  c.description = description;
  if (description.length === 0) c.diagnostics.push(diag('llms-item-empty-description', 'warning', 'The item has no description.', at));

  if (comment.kind === 'not-last') {
    c.diagnostics.push(diag('llms-comment-not-last', 'warning', 'The <!-- skill: … --> comment is not the last thing on the line; it is ignored.', at));
  } else if (comment.kind === 'comment') {
    applyComment(c, comment.json, line, base, origin);
  }
  return c;
}

/**
 * Parses /llms.txt bytes. `finalUrl` is the document URL after redirects (the base for
 * relative links); `origin` is the probed origin (for the artifact host rules).
 */
export function parseLlmsTxt(bytes: Uint8Array, finalUrl: string, origin: string): ParsedLlmsTxt {
  const lines = splitLines(decodeUtf8(bytes));
  const candidates: SkillCandidate[] = [];
  const diagnostics: Diagnostic[] = [];
  let fence: Fence | null = null;
  let inSection = false;
  let sections = 0;
  let itemsInSection = 0;
  let sectionLine = 0;

  const closeSection = (): void => {
    if (inSection && itemsInSection === 0) {
      diagnostics.push(diag('llms-skills-section-empty', 'info', 'A ## Skills section lists no skills.', { line: sectionLine }));
    }
    inSection = false;
  };

  for (let index = 0; index < lines.length; index += 1) {
    const text = lines[index] ?? '';
    const line = index + 1;
    if (fence !== null) {
      if (fenceCloses(text, fence)) fence = null;
      continue;
    }
    const opened = fenceOpen(text);
    if (opened !== null) {
      fence = opened;
      continue;
    }
    if (isSkillsHeading(text)) {
      closeSection();
      sections += 1;
      inSection = true;
      itemsInSection = 0;
      sectionLine = line;
      if (sections > 1) diagnostics.push(diag('llms-second-skills-section', 'warning', 'Another ## Skills section; its items are collected too.', { line }));
      continue;
    }
    if (isSectionEnd(text)) {
      closeSection();
      continue;
    }
    if (!inSection) continue;
    const item = readItem(text, line, finalUrl, origin);
    if (item === null) continue;
    if ('source' in item) {
      candidates.push(item);
      itemsInSection += 1;
    } else {
      diagnostics.push(item);
    }
  }
  closeSection();
  return { hasSkillsSection: sections > 0, candidates, diagnostics };
}
