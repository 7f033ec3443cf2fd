// Is a 200 body really an HTML page (SPA fallback, soft 404)? FORMATS.md §9.4.
import { DOCUMENTS, type DocumentKind } from '../types';

const TEXT_MARKERS = ['<!doctype html', '<html', '<head', '<body'];

function isAsciiWhitespace(b: number): boolean {
  return b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
}

/** Offset of the first byte after a UTF-8 BOM and ASCII whitespace. */
function contentStart(bytes: Uint8Array): number {
  let i = 0;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (i < bytes.length && isAsciiWhitespace(bytes[i] ?? 0)) i++;
  return i;
}

/** Whether the bytes at `at` spell the (lower-case ASCII) `marker` in any case. */
function startsWithCaseless(bytes: Uint8Array, at: number, marker: string): boolean {
  return String.fromCharCode(...bytes.subarray(at, at + marker.length)).toLowerCase() === marker;
}

/** The media type of a Content-Type without parameters, lower-cased; null when absent or empty. */
export function mediaType(contentType: string | null): string | null {
  return contentType?.split(';')[0]?.trim().toLowerCase() || null;
}

/**
 * True when the body is an HTML page rather than the document asked for, by the kind's `sniff`
 * in DOCUMENTS. `json` documents (index, legacy index, attestations) are HTML when the body
 * starts with `<`. `text` documents (llms.txt, SKILL.md, `.pub`) and archives are HTML when the
 * body starts with an HTML tag (`<!doctype html`, `<html`, `<head`, `<body`, any case), or when
 * the Content-Type is text/html and the body starts with `<`.
 */
export function sniffsAsHtml(bytes: Uint8Array, contentType: string | null, kind: DocumentKind): boolean {
  const at = contentStart(bytes);
  const startsWithLt = bytes[at] === 0x3c;
  if (DOCUMENTS[kind].sniff === 'json') return startsWithLt;
  if (TEXT_MARKERS.some((m) => startsWithCaseless(bytes, at, m))) return true;
  return startsWithLt && mediaType(contentType) === 'text/html';
}
