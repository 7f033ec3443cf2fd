// How matched text appears in a finding: control, invisible and bidirectional characters escaped
// (\uXXXX, or \u{XXXXX} beyond the BMP), lone surrogates escaped, shortened to MATCH_MAX.
import { isBidi, isInvisible } from '../verify/advisory';
import { MATCH_MAX } from './limits';

function escapeCp(cp: number): string {
  return cp > 0xffff ? `\\u{${cp.toString(16).toUpperCase()}}` : `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** True for a code point a finding shows escaped. */
export function isHiddenCp(cp: number): boolean {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || isInvisible(cp) || isBidi(cp) || (cp >= 0xd800 && cp <= 0xdfff) || cp === 0x2028 || cp === 0x2029;
}

/** The text as a finding shows it. */
export function shown(text: string): string {
  let out = '';
  /** The longest prefix (at a character boundary) that leaves room for the ellipsis. */
  let cut = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    const piece = cp === 0x09 ? ' ' : isHiddenCp(cp) ? escapeCp(cp) : ch;
    if (out.length + piece.length > MATCH_MAX) return `${out.slice(0, cut)}…`;
    out += piece;
    if (out.length <= MATCH_MAX - 1) cut = out.length;
  }
  return out;
}
