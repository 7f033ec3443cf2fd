// @ts-check
// The parts of a generated document that a run keeps as they are: the text between two marker
// comments, markers included.

/**
 * The section of `md` from `begin` to `end` (markers included), or null when either is missing.
 * @param {string} md @param {string} begin @param {string} end
 */
export function sectionBetween(md, begin, end) {
  const from = md.indexOf(begin);
  const to = md.indexOf(end, from);
  return from >= 0 && to > from ? md.slice(from, to + end.length) : null;
}
