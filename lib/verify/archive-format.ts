// Which archive format an artifact is (FORMATS.md §6.1): the Content-Type decides, the URL extension
// only when the header is missing or generic, and the magic bytes must agree with the choice.

import { mediaType } from '../net/html-sniff';
import { invalid, unsupported, type ArchiveFailure } from './archive-names';

export type ArchiveFormat = 'zip' | 'tar.gz';

/** A refusal here is never `too-large`: only `invalid` or `unsupported`. */
export type FormatDetection = { ok: true; format: ArchiveFormat } | ArchiveFailure;

const BY_CONTENT_TYPE: Record<string, ArchiveFormat> = {
  'application/gzip': 'tar.gz',
  'application/x-gzip': 'tar.gz',
  'application/zip': 'zip',
};

/** The lower-cased path of a URL (query and fragment removed); works for relative strings too. */
function urlPath(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.split(/[?#]/)[0] ?? '';
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep the encoded form
  }
  return path.toLowerCase();
}

function formatFromExtension(url: string): ArchiveFormat | null {
  const path = urlPath(url);
  if (path.endsWith('.tar.gz')) return 'tar.gz';
  if (path.endsWith('.zip')) return 'zip';
  return null;
}

function magicFormat(bytes: Uint8Array): ArchiveFormat | null {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return 'tar.gz';
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b) {
    if (bytes[2] === 0x03 && bytes[3] === 0x04) return 'zip';
    if (bytes[2] === 0x05 && bytes[3] === 0x06) return 'zip';
  }
  return null;
}

function describe(format: ArchiveFormat): string {
  return format === 'zip' ? 'a zip file' : 'a gzip stream';
}

export function detectArchiveFormat(contentType: string | null, url: string, bytes: Uint8Array): FormatDetection {
  const type = mediaType(contentType);
  let expected: ArchiveFormat | null;
  let because: string;
  if (type === null || type === 'application/octet-stream') {
    expected = formatFromExtension(url);
    because = type === null ? 'no Content-Type, URL extension' : 'generic Content-Type, URL extension';
    if (expected === null) {
      const served = type === null ? 'no Content-Type' : 'the generic Content-Type application/octet-stream';
      return unsupported('archive-format-unknown', `The archive has ${served} and its URL ends neither in .tar.gz nor in .zip.`);
    }
  } else {
    expected = BY_CONTENT_TYPE[type] ?? null;
    because = `Content-Type ${type}`;
    if (expected === null) {
      const supported = 'only application/gzip (or application/x-gzip) for .tar.gz and application/zip for .zip are supported';
      return unsupported('archive-format-unsupported', `The archive is served as ${type}; ${supported}.`);
    }
  }
  const actual = magicFormat(bytes);
  if (actual !== expected) {
    const found = actual === null ? 'are neither gzip nor zip' : `are ${describe(actual)}`;
    return invalid('archive-magic-mismatch', `The ${because} says ${describe(expected)}, but the bytes ${found}.`);
  }
  return { ok: true, format: expected };
}
