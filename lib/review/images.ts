// Text hidden in images (PRODUCT.md §6.1): PNG tEXt, zTXt and iTXt chunks, JPEG comments and the
// text of EXIF and XMP metadata; SVG text an agent reads but a viewer may not show, and SVG that
// runs code when opened (text elements, scripts, event handlers, foreign objects). Raster images
// are read as containers, chunk by chunk, never decoded; a compressed chunk is inflated within a
// small cap.
import { inflateRawBounded } from '../verify/archive-inflate';
import type { Findings } from './findings';
import type { LineRule } from './line-rules';

const INFLATE_CAP = 4096;
const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8', { fatal: false });
/** Metadata every editor writes: short values of these keys are not reported. */
const ROUTINE = /^(?:software|creation time|date:create|date:modify|date:timestamp|signature|exif:[a-z]+|png:[a-z-]+|modify-date|create-date)$/i;
const MESSAGE = 'An image carries text in its metadata that viewers do not show but an agent may read.';

function u32(b: Uint8Array, at: number): number {
  return (((b[at] as number) << 24) | ((b[at + 1] as number) << 16) | ((b[at + 2] as number) << 8) | (b[at + 3] as number)) >>> 0;
}

export function isPng(b: Uint8Array): boolean {
  return b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a;
}

export function isJpeg(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
}

/** The text of a PNG text chunk: keyword and value (zTXt and compressed iTXt inflated). */
function pngText(type: string, data: Uint8Array): { key: string; value: string } | null {
  const nul = data.indexOf(0);
  if (nul < 0) return null;
  const key = latin1.decode(data.subarray(0, nul));
  if (type === 'tEXt') return { key, value: latin1.decode(data.subarray(nul + 1)) };
  if (type === 'zTXt') return { key, value: inflated(data.subarray(nul + 2)) };
  // iTXt: keyword, compression flag, method, language tag, translated keyword, text.
  const compressed = data[nul + 1] === 1;
  const lang = data.indexOf(0, nul + 3);
  const translated = lang < 0 ? -1 : data.indexOf(0, lang + 1);
  if (translated < 0) return { key, value: '' };
  const body = data.subarray(translated + 1);
  return { key, value: compressed ? inflated(body) : utf8.decode(body) };
}

/** A zlib stream's text (2-byte header skipped), within INFLATE_CAP; what could not be inflated says so. */
function inflated(zlib: Uint8Array): string {
  const out = inflateRawBounded(zlib.subarray(2), INFLATE_CAP);
  return out.ok ? utf8.decode(out.bytes) : out.reason === 'over-cap' ? '(compressed text over 4 KiB)' : '(compressed text)';
}

function pngFindings(path: string, b: Uint8Array, out: Findings): void {
  let at = 8;
  while (at + 12 <= b.length) {
    const length = u32(b, at);
    const type = latin1.decode(b.subarray(at + 4, at + 8));
    if (at + 12 + length > b.length) break;
    if (type === 'tEXt' || type === 'zTXt' || type === 'iTXt') {
      const t = pngText(type, b.subarray(at + 8, at + 8 + length));
      if (t !== null && (!ROUTINE.test(t.key) || t.value.length > 64)) out.add('hidden-in-image', 'look', path, null, `${type} ${t.key}: ${t.value}`, MESSAGE);
    }
    if (type === 'IEND') break;
    at += 12 + length;
  }
}

/** Printable runs of at least `min` characters: the readable text inside binary metadata. */
function printableRuns(b: Uint8Array, min: number): string[] {
  const runs: string[] = [];
  let start = -1;
  for (let i = 0; i <= b.length; i++) {
    const c = i < b.length ? (b[i] as number) : 0;
    const printable = c >= 0x20 && c < 0x7f;
    if (printable && start < 0) start = i;
    if (!printable && start >= 0) {
      if (i - start >= min && runs.length < 8) runs.push(latin1.decode(b.subarray(start, i)));
      start = -1;
    }
  }
  return runs;
}

/** XMP is XML: the text between tags, without the namespace boilerplate. */
function xmpText(b: Uint8Array): string[] {
  const values = [...utf8.decode(b).matchAll(/>([^<>]{12,2000})</g)].map((m) => (m[1] as string).trim());
  return values.filter((value) => value.length >= 12).slice(0, 8);
}

function jpegFindings(path: string, b: Uint8Array, out: Findings): void {
  let at = 2;
  while (at + 4 <= b.length && b[at] === 0xff) {
    const marker = b[at + 1] as number;
    if (marker === 0xd9 || marker === 0xda) break;
    const length = ((b[at + 2] as number) << 8) | (b[at + 3] as number);
    if (length < 2 || at + 2 + length > b.length) break;
    const seg = b.subarray(at + 4, at + 2 + length);
    if (marker === 0xfe) out.add('hidden-in-image', 'look', path, null, `comment: ${utf8.decode(seg)}`, MESSAGE);
    if (marker === 0xe1) {
      const head = latin1.decode(seg.subarray(0, 29));
      const texts = head.startsWith('Exif') ? printableRuns(seg, 20) : head.startsWith('http://ns.adobe.com/xap/1.0/') ? xmpText(seg.subarray(29)) : [];
      for (const t of texts) out.add('hidden-in-image', 'look', path, null, `${head.startsWith('Exif') ? 'EXIF' : 'XMP'}: ${t}`, MESSAGE);
    }
    at += 2 + length;
  }
}

/** Reviews a raster image; answers whether the file was one (then it is not read as text). */
export function rasterImageFindings(path: string, bytes: Uint8Array, out: Findings): boolean {
  if (isPng(bytes)) pngFindings(path, bytes, out);
  else if (isJpeg(bytes)) jpegFindings(path, bytes, out);
  else return false;
  return true;
}

const SVG_MESSAGE = 'The SVG image holds text or code (text elements, scripts, event handlers) that a viewer may not show but an agent reads or a browser runs.';

export const SVG_RULES: LineRule[] = [
  { kind: 'hidden-in-image', severity: 'look', re: /<(?:svg:)?(?:text|textPath|script|foreignObject)\b[^\n]{0,200}/i, message: SVG_MESSAGE },
  { kind: 'hidden-in-image', severity: 'look', re: /<[A-Za-z][^>\n]{0,300}?\son[a-z]{3,30}\s{0,3}=[^\n]{0,120}/i, message: SVG_MESSAGE },
];

/** True for an SVG file, by name or by its opening. */
export function isSvg(path: string, text: string): boolean {
  return /\.svgz?$/i.test(path) || /^\s{0,200}(?:<\?xml[^>]{0,200}>\s{0,200})?<svg\b/i.test(text.slice(0, 1024));
}
