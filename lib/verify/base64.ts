// Strict standard base64 (RFC 4648 §4) for keys and signatures.
//
// Accepted: the standard alphabet A–Z a–z 0–9 + /, length a multiple of 4,
// '=' padding only at the end (at most two), zero bits in the unused low bits
// of the last symbol (canonical form). ASCII whitespace (space, tab, LF, FF,
// CR) is trimmed at both ends only. Anything else — inner whitespace, the
// URL-safe alphabet, missing padding, non-canonical trailing bits — is
// refused with null.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const DECODE: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) t[ALPHABET.charCodeAt(i)] = i;
  return t;
})();

function isAsciiWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

function value(c: number): number {
  return c < 128 ? (DECODE[c] as number) : -1;
}

/** Decodes strict standard base64; null on any problem. Never throws. */
export function decodeBase64Strict(s: string): Uint8Array | null {
  if (typeof s !== 'string') return null;
  let start = 0;
  let end = s.length;
  while (start < end && isAsciiWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isAsciiWhitespace(s.charCodeAt(end - 1))) end--;
  const len = end - start;
  if (len % 4 !== 0) return null;
  if (len === 0) return new Uint8Array(0);

  let pad = 0;
  if (s.charCodeAt(end - 1) === 0x3d) pad = s.charCodeAt(end - 2) === 0x3d ? 2 : 1;
  const out = new Uint8Array((len / 4) * 3 - pad);
  let o = 0;
  for (let i = start; i < end; i += 4) {
    // Each group of four symbols is 24 bits; the last group may end in `pad` '=' instead.
    const padHere = i + 4 === end ? pad : 0;
    let bits = 0;
    for (let k = 0; k < 4 - padHere; k++) {
      const symbol = value(s.charCodeAt(i + k));
      if (symbol < 0) return null;
      bits = (bits << 6) | symbol;
    }
    bits <<= 6 * padHere;
    // xx== gives one byte and xxx= two; the bits of the last symbol past them must be zero.
    if ((bits & ((1 << (8 * padHere)) - 1)) !== 0) return null;
    for (let k = 0; k < 3 - padHere; k++) out[o++] = (bits >> (16 - 8 * k)) & 0xff;
  }
  return o === out.length ? out : null;
}

/** Standard base64 of the bytes; with `pad` false the trailing '=' are left out. */
export function encodeBase64(bytes: Uint8Array, pad = true): string {
  let binary = '';
  // A chunk's bytes as the arguments of fromCharCode (apply takes any array-like).
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  const out = btoa(binary);
  return pad ? out : out.replace(/=+$/, '');
}
