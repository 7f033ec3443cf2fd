// Declared-digest check (FORMATS.md §4, PRODUCT.md §3).
//
// A declared digest matches when its lowercased hex equals SHA-256 of the raw
// bytes or of the lf-normalized bytes (every 0D 0A replaced by 0A, nothing
// else). The result records which form matched.

import type { DeclaredDigest } from '../types';
import { sha256, toHex, type Sha256 } from './sha256';

export interface DigestCheck {
  rawHex: string;
  lfHex: string;
  /** Which form matched every declared digest, or null when nothing was declared or none matched. */
  matchedForm: 'raw' | 'lf-normalized' | null;
  /** Nothing declared. */
  undeclared: boolean;
  /** At least one declared digest matched neither form. */
  mismatch: boolean;
}

const CR = 0x0d;
const LF = 0x0a;

function hasCrLf(bytes: Uint8Array): boolean {
  for (let i = bytes.indexOf(CR); i !== -1; i = bytes.indexOf(CR, i + 1)) {
    if (bytes[i + 1] === LF) return true;
  }
  return false;
}

/**
 * Replaces every CR LF pair with LF. A lone CR stays, a BOM stays, nothing
 * else changes. When the bytes hold no CR LF the input array itself is
 * returned (no copy); otherwise a new array.
 */
export function lfNormalize(bytes: Uint8Array): Uint8Array {
  if (!hasCrLf(bytes)) return bytes;
  const out = new Uint8Array(bytes.length);
  let o = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    if (b === CR && i + 1 < n && bytes[i + 1] === LF) continue;
    out[o++] = b;
  }
  return out.slice(0, o);
}

/**
 * Compares the declared digests with SHA-256 of the raw and lf-normalized
 * bytes. `matchedForm` is the form every declared digest matched, preferring
 * `raw` when both forms are equal; when the declared digests match different
 * forms (they then disagree with each other, which the merge step reports),
 * it is the form of the first declared digest.
 */
export async function checkDigests(bytes: Uint8Array, declared: DeclaredDigest[], hash: Sha256 = sha256): Promise<DigestCheck> {
  const rawHex = toHex(await hash(bytes));
  const lf = lfNormalize(bytes);
  const lfHex = lf === bytes ? rawHex : toHex(await hash(lf));

  if (declared.length === 0) return { rawHex, lfHex, matchedForm: null, undeclared: true, mismatch: false };

  const forms: Array<'raw' | 'lf-normalized' | null> = declared.map((d) => {
    const hex = typeof d.hex === 'string' ? d.hex.toLowerCase() : '';
    if (hex === rawHex) return 'raw';
    if (hex === lfHex) return 'lf-normalized';
    return null;
  });

  if (forms.includes(null)) return { rawHex, lfHex, matchedForm: null, undeclared: false, mismatch: true };
  // When every declared digest matched the same form, that is the first one's form as well.
  return { rawHex, lfHex, matchedForm: forms[0] ?? null, undeclared: false, mismatch: false };
}
