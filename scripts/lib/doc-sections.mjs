// @ts-check
// What the generated documents share: the parts a run keeps as they are (the text between two
// marker comments, markers included), and the text of a markdown table cell.

/**
 * The section of `md` from `begin` to `end` (markers included), or null when either is missing.
 * @param {string} md @param {string} begin @param {string} end
 */
export function sectionBetween(md, begin, end) {
  const from = md.indexOf(begin);
  const to = md.indexOf(end, from);
  return from >= 0 && to > from ? md.slice(from, to + end.length) : null;
}

/**
 * Markdown table cell text: one line, pipes escaped, markup shown literally.
 * @param {unknown} value
 */
export function cell(value) {
  return String(value)
    .replace(/\r?\n|\r/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/`/g, "'");
}
