// Byte → text for discovery documents (FORMATS.md §1.1): UTF-8 without `fatal`,
// a leading BOM stripped, invalid sequences replaced by U+FFFD.

/** Decodes UTF-8 leniently. A leading BOM is dropped; invalid sequences become U+FFFD. */
export function decodeUtf8(bytes: Uint8Array): string {
  // ignoreBOM: false means the decoder consumes (strips) a leading BOM.
  return new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes);
}

/**
 * Splits text into lines on CR LF, LF or a lone CR, in one pass.
 * A final line terminator does not produce an extra empty line; a missing one is fine.
 * The empty text has no lines.
 */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      lines.push(text.slice(start, i));
      i += 1;
      start = i;
    } else if (c === 0x0d) {
      lines.push(text.slice(start, i));
      i += text.charCodeAt(i + 1) === 0x0a ? 2 : 1;
      start = i;
    } else {
      i += 1;
    }
  }
  if (start < n) lines.push(text.slice(start));
  return lines;
}
