// The well-known skill index (FORMATS.md §2.1–2.5), current or legacy path. The shape is
// read from each entry's content, never from the path the document was served at.

import type { Diagnostic } from '../types';
import type { SkillCandidate } from './candidate';
import { decodeUtf8 } from './decode';
import { diag, isJsonObject, own, ownString, ownStringOr } from './common';
import { findDuplicateKeys } from './json-dupes';
import { readDraftOrCustomEntry, readUrlEntry, readV01Entry, type EntryContext } from './index-entry';

export interface ParsedIndex {
  source: 'index' | 'legacy-index';
  schema: string | null;
  shape: 'v0.2' | 'v0.1' | 'mixed' | 'empty' | 'other';
  /** Top-level `signing_alg`, verbatim. */
  signingAlg: string | null;
  /** Top-level `signing_key`, verbatim (base64 of 32 raw bytes, unchecked). */
  signingKey: string | null;
  candidates: SkillCandidate[];
  diagnostics: Diagnostic[];
}

/** An index document that could not be used at all. */
export interface InvalidDocument {
  invalid: true;
  code: string;
  message: string;
}

export const KNOWN_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

type EntryShape = 'url' | 'v0.1' | 'draft' | 'custom';

/** FORMATS.md §2.3, first matching row wins. */
export function entryShape(entry: Record<string, unknown>): EntryShape {
  if (typeof own(entry, 'url') === 'string') return 'url';
  const files = own(entry, 'files');
  if (Array.isArray(files)) {
    if (!Object.hasOwn(entry, 'url') && files.every((f) => typeof f === 'string')) return 'v0.1';
    if (files.length > 0 && files.every((f) => isJsonObject(f) && typeof own(f, 'path') === 'string')) return 'draft';
  }
  return 'custom';
}

function invalid(code: string, message: string): InvalidDocument {
  return { invalid: true, code, message };
}

/**
 * Parses an index document. `finalUrl` is its URL after redirects (the base for relative
 * URLs and for v0.1 artifact paths); `origin` is the probed origin.
 */
export function parseIndex(bytes: Uint8Array, finalUrl: string, origin: string, source: 'index' | 'legacy-index'): ParsedIndex | InvalidDocument {
  const text = decodeUtf8(bytes);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    const why = error instanceof RangeError ? 'it is nested too deeply' : 'it is not valid JSON';
    return invalid('index-invalid-json', `The index cannot be parsed: ${why}.`);
  }
  if (!isJsonObject(root)) return invalid('index-not-object', 'The index is not a JSON object.');
  const skills = own(root, 'skills');
  if (!Array.isArray(skills)) return invalid('index-no-skills-array', 'The index has no "skills" array.');

  const diagnostics: Diagnostic[] = [];
  const at = { url: finalUrl };

  for (const dup of findDuplicateKeys(text)) {
    diagnostics.push(diag('index-duplicate-key', 'warning', `The key "${dup.key}" appears twice in one object; the last value is used.`, at));
  }

  let schema: string | null = null;
  if (Object.hasOwn(root, '$schema')) {
    schema = ownString(root, '$schema');
    if (schema !== KNOWN_SCHEMA) {
      diagnostics.push(diag('index-unknown-schema', 'warning', 'Unrecognized $schema; the entries are processed by their shape.', at));
    }
  } else {
    diagnostics.push(diag('index-unknown-schema', 'warning', 'No $schema; the entries are processed by their shape.', at));
  }

  const signing = (key: 'signing_alg' | 'signing_key'): string | null =>
    ownStringOr(root, key, () => diagnostics.push(diag('index-signing-field-type', 'warning', `The top-level "${key}" is not a string; it is ignored.`, at)));
  const signingAlg = signing('signing_alg');
  const signingKey = signing('signing_key');

  const ctx: EntryContext = { finalUrl, origin, source };
  const candidates: SkillCandidate[] = [];
  let urlEntries = 0;
  let v01Entries = 0;
  skills.forEach((entry: unknown, index: number) => {
    if (!isJsonObject(entry)) {
      diagnostics.push(diag('index-entry-not-object', 'warning', `Entry ${index} of "skills" is not an object; it is skipped.`, at));
      return;
    }
    const shape = entryShape(entry);
    if (shape === 'url') {
      urlEntries += 1;
      candidates.push(readUrlEntry(entry, index, ctx));
    } else if (shape === 'v0.1') {
      v01Entries += 1;
      candidates.push(readV01Entry(entry, index, ctx));
    } else {
      candidates.push(readDraftOrCustomEntry(entry, index, shape, ctx));
    }
  });

  let shape: ParsedIndex['shape'];
  if (skills.length === 0) shape = 'empty';
  else if (urlEntries > 0 && v01Entries > 0) shape = 'mixed';
  else if (urlEntries > 0) shape = 'v0.2';
  else if (v01Entries > 0) shape = 'v0.1';
  else shape = 'other';

  return { source, schema, shape, signingAlg, signingKey, candidates, diagnostics };
}
