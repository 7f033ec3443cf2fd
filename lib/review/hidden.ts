// Hidden text (PRODUCT.md §6.1) in any text file: invisible and bidirectional characters, Unicode
// tag characters (U+E0000–E007F: invisible ASCII an agent still reads, shown decoded), HTML
// comments, and markdown a rendered view hides (lib/verify/hidden-markdown.ts).
import { isBidi, isInvisible } from '../verify/advisory';
import { hiddenMarkdown } from '../verify/hidden-markdown';
import type { Findings } from './findings';
import { extensionOf } from './file-kinds';

const TAG_START = 0xe0000;
const TAG_END = 0xe007f;

interface LineScan {
  tags: string;
  invisible: string | null;
  bidi: string | null;
}

/** One pass over a line: the tag characters decoded, the first invisible and bidi character with its neighbours. */
function scanLine(line: string): LineScan {
  const scan: LineScan = { tags: '', invisible: null, bidi: null };
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c < 0x80) continue;
    const cp = line.codePointAt(i) as number;
    if (cp >= TAG_START && cp <= TAG_END) {
      if (scan.tags.length < 200) scan.tags += cp >= 0xe0020 && cp <= 0xe007e ? String.fromCharCode(cp - TAG_START) : '';
    } else if (isBidi(cp)) {
      scan.bidi ??= line.slice(Math.max(0, i - 20), i + 20);
    } else if (isInvisible(cp) && !(cp === 0xfeff && i === 0)) {
      scan.invisible ??= line.slice(Math.max(0, i - 20), i + 20);
    }
    if (cp > 0xffff) i++;
  }
  return scan;
}

const MARKUP = new Set(['md', 'markdown', 'mdx', 'html', 'htm', 'xml', 'svg', 'txt', 'text', '']);

export function hiddenFindings(path: string, lines: readonly string[], text: string, out: Findings): void {
  const hidden = (line: number, match: string, message: string) => out.add('hidden-text', 'look', path, line, match, message);
  lines.forEach((line, i) => {
    if (line.length === 0) return;
    const scan = scanLine(line);
    if (scan.tags !== '')
      hidden(i + 1, scan.tags, 'Invisible Unicode tag characters spell out text that you cannot see but the agent reads (shown here decoded): a known way to smuggle instructions.');
    if (scan.invisible !== null) hidden(i + 1, scan.invisible, 'Invisible characters (zero-width or similar) can hide text from you while the agent reads it.');
    if (scan.bidi !== null) hidden(i + 1, scan.bidi, 'Bidirectional control characters can make text display in another order than the agent reads it.');
  });
  const ext = extensionOf(path);
  if (!MARKUP.has(ext)) return;
  lines.forEach((line, i) => {
    const at = line.indexOf('<!--');
    if (at >= 0) hidden(i + 1, line.slice(at, at + 200), 'An HTML comment is hidden when the text is shown, but the agent reads it.');
  });
  // A link definition needs "]:"; without one the markdown pass has nothing to find.
  if ((ext === 'md' || ext === 'markdown' || ext === 'mdx') && text.includes(']:')) {
    for (const d of hiddenMarkdown(text).unusedDefinitions) {
      hidden(d.line + 1, d.text, 'A link definition that no link uses is hidden when the markdown is shown (a way to write comments the agent still reads).');
    }
  }
}
