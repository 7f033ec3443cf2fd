// SVG text an agent reads but a viewer may not show, and SVG that runs code when opened: text
// elements, scripts, event handlers, foreign objects.
import type { LineRule } from './line-rules';

const MESSAGE = 'The SVG image holds text or code (text elements, scripts, event handlers) that a viewer may not show but an agent reads or a browser runs.';

export const SVG_RULES: LineRule[] = [
  { kind: 'hidden-in-image', severity: 'look', re: /<(?:svg:)?(?:text|textPath|script|foreignObject)\b[^\n]{0,200}/i, message: MESSAGE },
  { kind: 'hidden-in-image', severity: 'look', re: /<[A-Za-z][^>\n]{0,300}?\son[a-z]{3,30}\s{0,3}=[^\n]{0,120}/i, message: MESSAGE },
];

/** True for an SVG file, by name or by its opening. */
export function isSvg(path: string, text: string): boolean {
  return /\.svgz?$/i.test(path) || /^\s{0,200}(?:<\?xml[^>]{0,200}>\s{0,200})?<svg\b/i.test(text.slice(0, 1024));
}
