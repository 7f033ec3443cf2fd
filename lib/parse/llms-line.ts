// Line-level scanners for the `## Skills` grammar (FORMATS.md §1.2). Hand-written and
// regex-free on purpose: every function looks at each character a bounded number of times,
// so a 1 MiB line costs linear time whatever it contains.

export interface Fence {
  char: '`' | '~';
  length: number;
}

function isBlank(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t';
}

/** Up to 3 leading spaces, or -1 when the line is indented 4+ columns (or starts with a tab). */
export function headIndent(line: string): number {
  let i = 0;
  while (i < 4 && line[i] === ' ') i += 1;
  if (i === 4 || line[i] === '\t') return -1;
  return i;
}

function runLength(line: string, from: number, ch: string): number {
  let i = from;
  while (line[i] === ch) i += 1;
  return i - from;
}

function onlyBlanksFrom(line: string, from: number): boolean {
  for (let i = from; i < line.length; i += 1) if (!isBlank(line[i])) return false;
  return true;
}

/** A fence opener: up to 3 spaces, then three or more backticks or tildes. */
export function fenceOpen(line: string): Fence | null {
  const i = headIndent(line);
  if (i < 0) return null;
  const ch = line[i];
  if (ch !== '`' && ch !== '~') return null;
  const length = runLength(line, i, ch);
  if (length < 3) return null;
  // A backtick fence's info string may not contain a backtick (CommonMark).
  if (ch === '`' && line.indexOf('`', i + length) >= 0) return null;
  return { char: ch, length };
}

/** Closes `open` when the line is the same character, at least as long, and nothing else. */
export function fenceCloses(line: string, open: Fence): boolean {
  const i = headIndent(line);
  if (i < 0 || line[i] !== open.char) return false;
  const length = runLength(line, i, open.char);
  return length >= open.length && onlyBlanksFrom(line, i + length);
}

/** `^ {0,3}##[ \t]+skills[ \t]*#*[ \t]*$`, case-insensitive. */
export function isSkillsHeading(line: string): boolean {
  let i = headIndent(line);
  if (i < 0 || line[i] !== '#' || line[i + 1] !== '#' || !isBlank(line[i + 2])) return false;
  i += 2;
  while (isBlank(line[i])) i += 1;
  if (line.slice(i, i + 6).toLowerCase() !== 'skills') return false;
  i += 6;
  while (isBlank(line[i])) i += 1;
  while (line[i] === '#') i += 1;
  while (isBlank(line[i])) i += 1;
  return i === line.length;
}

/** `^ {0,3}#{1,2}[ \t]`: an H1 or H2 heading, which ends a section. */
export function isSectionEnd(line: string): boolean {
  const i = headIndent(line);
  if (i < 0) return false;
  const hashes = runLength(line, i, '#');
  return (hashes === 1 || hashes === 2) && isBlank(line[i + hashes]);
}

export type ItemScan = { kind: 'not-bullet' } | { kind: 'no-link' } | { kind: 'bare-url' } | { kind: 'malformed'; reason: string } | { kind: 'item'; title: string; url: string; rest: string };

function isThematicBreak(line: string, from: number, ch: string): boolean {
  let count = 0;
  for (let i = from; i < line.length; i += 1) {
    const c = line[i];
    if (c === ch) count += 1;
    else if (!isBlank(c)) return false;
  }
  return count >= 3;
}

function isWhitespace(ch: string): boolean {
  return /\s/.test(ch);
}

/**
 * Reads a list line: `^ {0,3}[-*+][ \t]+` then, for an item, `[title](url)` and the rest of
 * the line. The title runs to the first `](`; the URL is non-whitespace with at most one
 * level of balanced parentheses.
 */
export function scanItem(line: string): ItemScan {
  const indent = headIndent(line);
  if (indent < 0) return { kind: 'not-bullet' };
  const bullet = line[indent];
  if (bullet !== '-' && bullet !== '*' && bullet !== '+') return { kind: 'not-bullet' };
  if (!isBlank(line[indent + 1])) return { kind: 'not-bullet' };
  if (isThematicBreak(line, indent, bullet)) return { kind: 'not-bullet' };
  let p = indent + 1;
  while (isBlank(line[p])) p += 1;
  if (line[p] !== '[') {
    const rest = line.slice(p, p + 8).toLowerCase();
    if (rest.startsWith('http://') || rest.startsWith('https://') || rest.startsWith('<http')) return { kind: 'bare-url' };
    return { kind: 'no-link' };
  }
  const close = line.indexOf('](', p + 1);
  if (close < 0) return { kind: 'no-link' };
  const title = line.slice(p + 1, close);
  const start = close + 2;
  let depth = 0;
  let j = start;
  for (;;) {
    if (j >= line.length) return { kind: 'malformed', reason: 'the link has no closing parenthesis' };
    const ch = line[j] ?? '';
    if (isWhitespace(ch)) return { kind: 'malformed', reason: 'the link URL contains whitespace' };
    if (ch === '(') {
      depth += 1;
      if (depth > 1) return { kind: 'malformed', reason: 'the link URL nests parentheses more than one level' };
    } else if (ch === ')') {
      if (depth === 0) break;
      depth -= 1;
    }
    j += 1;
  }
  const url = line.slice(start, j);
  if (url.length === 0) return { kind: 'malformed', reason: 'the link URL is empty' };
  return { kind: 'item', title, url, rest: line.slice(j + 1) };
}

export type CommentScan = { kind: 'none' } | { kind: 'not-last'; before: string } | { kind: 'comment'; before: string; json: string };

const COMMENT_OPEN = '<!--';
const SKILL_KEY = 'skill:';

/**
 * Finds `<!-- skill: {…} -->` in the text after the link. It only counts as the last thing
 * on the line; the first `<!--` followed by `skill:` is the one considered.
 */
export function scanComment(rest: string): CommentScan {
  let from = 0;
  let at = -1;
  let jsonStart = -1;
  for (;;) {
    const open = rest.indexOf(COMMENT_OPEN, from);
    if (open < 0) break;
    let k = open + COMMENT_OPEN.length;
    while (k < rest.length && isWhitespace(rest[k] ?? '')) k += 1;
    if (rest.startsWith(SKILL_KEY, k)) {
      at = open;
      jsonStart = k + SKILL_KEY.length;
      break;
    }
    from = Math.max(k, open + 1);
  }
  if (at < 0) return { kind: 'none' };
  const before = rest.slice(0, at);
  let end = rest.length;
  while (end > jsonStart && isBlank(rest[end - 1])) end -= 1;
  if (end - 3 < jsonStart || !rest.startsWith('-->', end - 3)) return { kind: 'not-last', before };
  return { kind: 'comment', before, json: rest.slice(jsonStart, end - 3).trim() };
}

/**
 * Reads `[ \t]* [ sep [ \t]* description ] [ \t]*` where sep is `:` or whitespace followed by
 * `-`, `–` or `—`, and answers the description, or null when the text has no separator. An empty
 * remainder is an empty description.
 */
export function scanDescription(text: string): string | null {
  let i = 0;
  while (isBlank(text[i])) i += 1;
  if (i === text.length) return '';
  const ch = text[i];
  if (ch === ':' || (i > 0 && (ch === '-' || ch === '\u2013' || ch === '\u2014'))) return text.slice(i + 1).trim();
  return null;
}
