// ASCII-only JSON serialization used by agentskills-snapshot-v1 (FORMATS.md §7):
// separators "," and ":" with no spaces, and every character outside
// U+0020–U+007E written as \uXXXX with lowercase hex (astral characters as
// their UTF-16 surrogate pair), except the short escapes \" \\ \n \r \t \b \f.

/**
 * A JSON string literal in the ASCII-only form: JSON.stringify already writes the short escapes and
 * every other character below U+0020 (and every lone surrogate) as a lowercase \uXXXX; what it
 * leaves as it is above U+007E is escaped here, one UTF-16 code unit at a time.
 */
export function asciiJsonString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** The bytes of a string known to be ASCII (what the serializer above emits): its UTF-8 is one byte per character. */
export function asciiBytes(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

/** Compares two strings by Unicode code point (the order of their UTF-8 bytes). */
export function compareCodePoints(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.codePointAt(i) as number;
    const cb = b.codePointAt(j) as number;
    if (ca !== cb) return ca < cb ? -1 : 1;
    i += ca > 0xffff ? 2 : 1;
    j += cb > 0xffff ? 2 : 1;
  }
  const restA = a.length - i;
  const restB = b.length - j;
  return restA === restB ? 0 : restA < restB ? -1 : 1;
}
