// A file's bytes as the text rules read them: the first FILE_SCAN_MAX bytes (within what is left
// of the skill's budget) decoded as UTF-8, or null for a binary file (a NUL in its first 8 KiB).
import { decodeUtf8, splitLines } from '../parse/decode';
import type { Findings } from './findings';
import { FILE_SCAN_MAX } from './limits';

export interface FileText {
  text: string;
  lines: string[];
}

const SNIFF = 8192;

/** True when the bytes look binary: a NUL byte among the first 8 KiB. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF).includes(0);
}

/** The text of a file, or null when it is binary or the skill's budget is spent. */
export function textOf(bytes: Uint8Array, out: Findings): FileText | null {
  if (looksBinary(bytes)) return null;
  const cap = Math.min(FILE_SCAN_MAX, out.budget);
  if (bytes.length > cap) out.truncated = true;
  const read = bytes.length > cap ? bytes.subarray(0, cap) : bytes;
  out.budget -= read.length;
  if (read.length === 0 && bytes.length > 0) return null;
  const text = decodeUtf8(read);
  return { text, lines: splitLines(text) };
}
