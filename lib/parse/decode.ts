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
  const lines = text.split(/\r\n?|\n/);
  // A final terminator (or the empty text) leaves an empty last piece, which is no line.
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
