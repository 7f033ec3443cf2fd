// ASCII-only JSON serialization used by agentskills-snapshot-v1 (FORMATS.md §7):
// separators "," and ":" with no spaces, and every character outside
// U+0020–U+007E written as \uXXXX with lowercase hex (astral characters as
// their UTF-16 surrogate pair), except the short escapes \" \\ \n \r \t \b \f.

/** A JSON string literal in the ASCII-only form. */
export function asciiJsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c >= 0x20 && c <= 0x7e) out += s[i] as string;
    else out += '\\u' + c.toString(16).padStart(4, '0');
  }
  return out + '"';
}

/** The bytes of a string known to be ASCII (what the serializer above emits). */
export function asciiBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0x7f;
  return out;
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
