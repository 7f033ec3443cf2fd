// Publisher strings (names and descriptions from llms.txt, the index, frontmatter) as Skillpin
// shows them: in the popup, the options page, menus, notifications and the context header.
// Bidi controls (U+202A–202E, U+2066–2069, U+200E/200F, U+061C) and invisible characters
// (zero-width, tags, fillers) are replaced by a visible [U+XXXX] so a name cannot reorder or
// hide what the user reads; control characters and line separators become spaces; the length
// is capped (by code points, never splitting a pair) with an ellipsis.
import { isBidi, isInvisible } from '../verify/advisory';

/** Display caps, in code points. */
export const NAME_MAX = 80;
export const DESCRIPTION_MAX = 400;

export interface DisplayText {
  text: string;
  /** Bidi and invisible characters that were replaced by their code points. */
  hidden: number;
  /** The text was longer than the cap. */
  cut: boolean;
}

function isControl(cp: number): boolean {
  return cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f) || cp === 0x2028 || cp === 0x2029;
}

export function codePointMark(cp: number): string {
  return `[U+${cp.toString(16).toUpperCase().padStart(4, '0')}]`;
}

export function displayText(value: string, max: number): DisplayText {
  let text = '';
  let hidden = 0;
  let count = 0;
  for (const ch of value) {
    const cp = ch.codePointAt(0) as number;
    // Count what lies past the cap too: the flag must not miss a control hidden at the end.
    const hide = isBidi(cp) || isInvisible(cp);
    if (hide) hidden++;
    if (count++ < max) text += hide ? codePointMark(cp) : isControl(cp) ? ' ' : ch;
  }
  const cut = count > max;
  return { text: cut ? `${text}…` : text, hidden, cut };
}

/** displayText's text alone. */
export function display(value: string, max: number): string {
  return displayText(value, max).text;
}
