// Finds the citations of the design documents (docs/design/) in a text and says which do not
// resolve. A citation names a document (`PRODUCT.md`, `FORMATS.md`, `ARCHITECTURE.md`,
// `TOOLCHAIN.md`, or a `ref/…` / `reference/…` note) and optionally a section: a number
// (`§2.3`, a range `§9.1–9.3`, a list `§4, §6`) or a quoted title (`TOOLCHAIN.md "Race"`).
// A section resolves when the document has a heading with that number, or one whose title starts
// with the quoted words. A bare `§n` belongs to the document cited last before it in the same
// text; inside a design document, a bare `§n` that does not continue a list belongs to that
// document itself. `RFC 8032 §7.1` and the like are not ours and are skipped.

export const DESIGN_DOCS = ['PRODUCT.md', 'FORMATS.md', 'ARCHITECTURE.md', 'TOOLCHAIN.md'] as const;

export interface Heading {
  /** The section number (`2.3`), or null for an unnumbered heading. */
  number: string | null;
  /** The heading text without its number, lower case. */
  title: string;
}

export interface Citation {
  /** The document as written (`PRODUCT.md`, `ref/corpus-real.md`). */
  doc: string;
  /** A section number, or null for a citation of the whole document or of a title. */
  section: string | null;
  /** A quoted section title, or null. */
  title: string | null;
  line: number;
  text: string;
}

export interface Unresolved extends Citation {
  why: string;
}

/** Headings of a markdown document, outside fenced code. */
export function headingsOf(markdown: string): Heading[] {
  const out: Heading[] = [];
  let fenced = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1] ?? '';
    const num = /^(\d+(?:\.\d+)*)\.?(?:\s+|$)(.*)$/.exec(text);
    out.push(num ? { number: num[1] ?? null, title: (num[2] ?? '').toLowerCase() } : { number: null, title: text.toLowerCase() });
  }
  return out;
}

const DOC = String.raw`\b(?:PRODUCT|FORMATS|ARCHITECTURE|TOOLCHAIN)\.md\b|\b(?:ref|reference)/[\w.-]+\.md\b`;
const SECTION = String.raw`§\s?(\d+(?:\.\d+)*)(?:\s?[–-]\s?§?(\d+(?:\.\d+)*))?`;
const TOKEN = new RegExp(`(${DOC})(?:\\s+"([^"\\n]+)")?|${SECTION}`, 'g');
/** What may stand between the parts of one citation: `PRODUCT.md §4, §6`, `§3–§7,\n// §9.2`, `§2.3; FORMATS.md`. */
const CONTINUES = /^[\s,;&/*#()]*(?:and\s+|or\s+)?$/;
const RFC_BEFORE = /\b(?:RFC|BCP|STD)\s?\d+\s*$/;

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/**
 * Every citation in `text`. `self` is the document the text is (for a design document), so a bare
 * `§n` in it resolves there; elsewhere a bare `§n` with no document cited before it is reported
 * with `doc` empty.
 */
export function citationsIn(text: string, self: string | null = null): Citation[] {
  const out: Citation[] = [];
  let last: string | null = null;
  let prevEnd = -1;
  let prevDoc: string | null = null;
  for (const m of text.matchAll(TOKEN)) {
    const index = m.index ?? 0;
    const gap = prevEnd >= 0 ? text.slice(prevEnd, index) : null;
    const continues = gap !== null && CONTINUES.test(gap);
    const line = lineAt(text, index);
    if (m[1]) {
      const doc = m[1];
      last = doc;
      prevDoc = doc;
      prevEnd = index + m[0].length;
      out.push({ doc, section: null, title: m[2] ?? null, line, text: m[0] });
      continue;
    }
    if (RFC_BEFORE.test(text.slice(Math.max(0, index - 16), index))) {
      prevEnd = -1;
      prevDoc = null;
      continue;
    }
    const doc: string = continues && prevDoc ? prevDoc : (self ?? last ?? '');
    prevDoc = doc || null;
    prevEnd = index + m[0].length;
    for (const section of [m[3], m[4]]) {
      if (section) out.push({ doc, section, title: null, line, text: m[0] });
    }
  }
  return out;
}

/**
 * The citations that do not resolve. `docs` maps a document as cited (`PRODUCT.md`,
 * `ref/x.md`) to its markdown, or to null when no such file exists.
 */
export function unresolved(citations: readonly Citation[], docs: (doc: string) => string | null): Unresolved[] {
  const cache = new Map<string, Heading[] | null>();
  const headings = (doc: string): Heading[] | null => {
    if (!cache.has(doc)) {
      const md = docs(doc);
      cache.set(doc, md === null ? null : headingsOf(md));
    }
    return cache.get(doc) ?? null;
  };
  const bad: Unresolved[] = [];
  for (const c of citations) {
    if (c.doc === '') {
      bad.push({ ...c, why: 'a section sign with no document cited before it' });
      continue;
    }
    const hs = headings(c.doc);
    if (hs === null) {
      bad.push({ ...c, why: `no such document: ${c.doc}` });
      continue;
    }
    if (c.section !== null && !hs.some((h) => h.number === c.section)) {
      bad.push({ ...c, why: `${c.doc} has no section ${c.section}` });
    }
    if (c.title !== null) {
      const want = c.title.toLowerCase();
      if (!hs.some((h) => h.title.startsWith(want))) bad.push({ ...c, why: `${c.doc} has no section titled "${c.title}"` });
    }
  }
  return bad;
}
