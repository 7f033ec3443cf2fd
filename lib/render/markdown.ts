// Renders a SKILL.md for display inside the extension's own pages. Two layers:
// marked turns markdown into HTML while treating any raw HTML in the source as
// text, then DOMPurify with a strict allowlist removes anything that is not
// plain document structure. Links are rewritten to open in a new tab and show
// their URL beside the link text; images become their alt text. What a markdown view
// would hide but the agent reads is shown: link titles beside the link, link
// definitions no link uses as code, invisible and bidi characters as their code point.
import { Marked, type Tokens } from 'marked';
import DOMPurify, { type Config } from 'dompurify';
import { hiddenMarkdown } from '../verify/hidden-markdown';
import { isBidi, isInvisible } from '../verify/advisory';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Schemes a rendered link may keep. Everything else becomes plain text. */
export const ALLOWED_LINK_PROTOCOLS: readonly string[] = ['https:', 'http:', 'mailto:'];

/** The DOMPurify configuration every rendered SKILL.md goes through. */
export const PURIFY_CONFIG: Config = {
  ALLOWED_TAGS: [
    'a',
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'ul',
    'ol',
    'li',
    'blockquote',
    'pre',
    'code',
    'em',
    'strong',
    'del',
    's',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'sup',
    'sub',
    'kbd',
    'dl',
    'dt',
    'dd',
  ],
  ALLOWED_ATTR: ['href', 'title', 'align', 'start'],
  FORBID_TAGS: [
    'script',
    'style',
    'iframe',
    'frame',
    'frameset',
    'object',
    'embed',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'svg',
    'math',
    'img',
    'picture',
    'source',
    'video',
    'audio',
    'link',
    'meta',
    'base',
    'template',
  ],
  FORBID_ATTR: ['style', 'class', 'id', 'srcset', 'src', 'action', 'formaction', 'xlink:href'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // http(s), mailto, fragment and relative references; never javascript:, data:, vbscript:, blob:, file:.
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#|\/|\.{0,2}\/|[^:/?#]*(?:[/?#]|$))/i,
  KEEP_CONTENT: true,
  WHOLE_DOCUMENT: false,
};

export interface RenderOptions {
  /** The skill's URL: relative links resolve against it. Without it, relative links become text. */
  baseUrl?: string;
}

function createMarked(): Marked {
  return new Marked({
    gfm: true,
    breaks: false,
    async: false,
    renderer: {
      // Raw HTML in the markdown is shown as text, never interpreted.
      html(token: Tokens.HTML | Tokens.Tag): string {
        const escaped = escapeHtml(token.text);
        return token.block ? `<p>${escaped}</p>\n` : escaped;
      },
      // No image is ever loaded: show its alt text instead.
      image(token: Tokens.Image): string {
        return token.text ? `[${escapeHtml(token.text)}]` : '';
      },
      checkbox(token: Tokens.Checkbox): string {
        return token.checked ? '[x] ' : '[ ] ';
      },
    },
  });
}

function windowOf(doc: Document | undefined): (Window & typeof globalThis) | null {
  const view = doc?.defaultView ?? (typeof window !== 'undefined' ? window : null);
  return view as (Window & typeof globalThis) | null;
}

function resolveHref(raw: string, baseUrl: string | undefined): URL | null {
  try {
    const url = baseUrl ? new URL(raw, baseUrl) : new URL(raw);
    return ALLOWED_LINK_PROTOCOLS.includes(url.protocol) ? url : null;
  } catch {
    return null;
  }
}

/** Rewrites every anchor: safe absolute URL, new tab, no opener, the URL visible after the text. */
function finishLinks(root: ParentNode, doc: Document, baseUrl: string | undefined): void {
  for (const a of Array.from(root.querySelectorAll('a'))) {
    const raw = a.getAttribute('href');
    const url = raw === null ? null : resolveHref(raw.trim(), baseUrl);
    if (!url) {
      a.replaceWith(doc.createTextNode(a.textContent ?? ''));
      continue;
    }
    const shown = url.protocol === 'mailto:' ? url.href.slice('mailto:'.length) : url.href;
    a.setAttribute('href', url.href);
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer');
    const text = (a.textContent ?? '').trim();
    const notes: Element[] = [];
    if (text !== shown && text !== url.href && text !== raw) notes.push(linkNote(doc, 'link-url', ` (${shown})`));
    const title = a.getAttribute('title');
    if (title !== null && title.trim() !== '') notes.push(linkNote(doc, 'link-title', ` “${title}”`));
    a.after(...notes);
  }
}

/** A span shown after a link: its URL or its title. */
function linkNote(doc: Document, className: string, text: string): Element {
  const note = doc.createElement('span');
  note.setAttribute('class', className);
  note.textContent = text;
  return note;
}

/** Every invisible or bidi control character becomes a visible mark naming its code point. */
function revealHiddenCharacters(root: ParentNode, doc: Document): void {
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) texts.push(n as Text);
  for (const node of texts) {
    const data = node.data;
    let from = 0;
    const parts: (string | Element)[] = [];
    for (let i = 0; i < data.length; i++) {
      const cp = data.codePointAt(i) ?? 0;
      const width = cp > 0xffff ? 2 : 1;
      if (isInvisible(cp) || isBidi(cp)) {
        if (i > from) parts.push(data.slice(from, i));
        const mark = doc.createElement('kbd');
        mark.setAttribute('class', 'hidden-char');
        mark.setAttribute('title', 'A character that does not show; the agent reads it');
        mark.textContent = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
        parts.push(mark);
        from = i + width;
      }
      i += width - 1;
    }
    if (parts.length === 0) continue;
    if (from < data.length) parts.push(data.slice(from));
    node.replaceWith(...parts);
  }
}

export const HIDDEN_DEFINITION_NOTE = 'Hidden in markdown views, read by the agent (a link definition no link uses):';

/** Link definitions no link uses are shown as code, with a note saying why. */
export function revealUnusedDefinitions(text: string): string {
  const hidden = hiddenMarkdown(text).unusedDefinitions;
  if (hidden.length === 0) return text;
  const lines = text.split(/\r?\n/);
  for (const d of hidden) {
    const longest = Math.max(2, ...Array.from(d.text.matchAll(/~+/g), (x) => x[0].length));
    const fence = '~'.repeat(longest + 1);
    lines[d.line] = `\n${HIDDEN_DEFINITION_NOTE}\n\n${fence}text\n${d.text}\n${fence}\n`;
  }
  return lines.join('\n');
}

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** Elements removed together with everything inside them (the rest are unwrapped to their text). */
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'svg',
  'math',
  'noscript',
  'noembed',
  'noframes',
  'textarea',
  'select',
  'title',
  'xmp',
  'plaintext',
  'head',
  'meta',
  'link',
  'base',
]);

function allowedList(key: 'ALLOWED_TAGS' | 'ALLOWED_ATTR'): Set<string> {
  const v = PURIFY_CONFIG[key];
  return new Set(Array.isArray(v) ? v.map((x) => String(x).toLowerCase()) : []);
}

/**
 * Enforces the allowlist once more on the sanitized tree, independently of
 * DOMPurify: unknown elements are unwrapped (or dropped with their content),
 * unknown attributes removed, comments removed. The result holds only
 * PURIFY_CONFIG's tags and attributes whatever the DOM implementation did.
 */
function enforceAllowlist(node: Node, tags: Set<string>, attrs: Set<string>): void {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === 3) continue; // text
    if (child.nodeType !== 1) {
      child.parentNode?.removeChild(child);
      continue;
    }
    const el = child as Element;
    const name = el.localName.toLowerCase();
    const htmlNs = el.namespaceURI === null || el.namespaceURI === HTML_NS;
    if (!htmlNs || !tags.has(name)) {
      if (DROP_WITH_CONTENT.has(name) || !htmlNs) {
        el.parentNode?.removeChild(el);
        continue;
      }
      enforceAllowlist(el, tags, attrs);
      while (el.firstChild) el.parentNode?.insertBefore(el.firstChild, el);
      el.parentNode?.removeChild(el);
      continue;
    }
    for (const attr of Array.from(el.attributes)) {
      if (!attrs.has(attr.name.toLowerCase())) el.removeAttribute(attr.name);
    }
    enforceAllowlist(el, tags, attrs);
  }
}

/**
 * Sanitizes HTML with PURIFY_CONFIG, enforces the allowlist again, and finishes
 * links. Returns '' when no DOM is available (rendering needs a document).
 */
export function sanitizeSkillHtml(html: string, doc?: Document, options: RenderOptions = {}): string {
  const win = windowOf(doc);
  if (!win) return '';
  const purify = DOMPurify(win);
  const clean = purify.isSupported ? String(purify.sanitize(html, PURIFY_CONFIG)) : escapeHtml(html);
  // An inert document (DOMParser): nothing parsed into it runs or loads. Parsing there rather
  // than assigning innerHTML keeps the Firefox add-on linter's unsafe-assignment warning off
  // our code, so `web-ext lint` shows no warning from it.
  const parsed = new win.DOMParser().parseFromString(clean, 'text/html');
  const root = parsed.body;
  enforceAllowlist(root, allowedList('ALLOWED_TAGS'), allowedList('ALLOWED_ATTR'));
  finishLinks(root, parsed, options.baseUrl);
  revealHiddenCharacters(root, parsed);
  return root.innerHTML;
}

/**
 * A leading YAML frontmatter block is shown as a code block, not as markdown
 * (its `---` lines would otherwise become rules and headings).
 */
export function frontmatterAsCode(text: string): string {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return text;
  const body = m[1] ?? '';
  const longest = Math.max(2, ...Array.from(body.matchAll(/`+/g), (x) => x[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}yaml\n${body}\n${fence}\n\n${text.slice(m[0].length)}`;
}

/** Markdown → safe HTML for the details view. */
export function renderSkillMarkdown(text: string, doc?: Document, options: RenderOptions = {}): string {
  let html: string;
  try {
    html = createMarked().parse(frontmatterAsCode(revealUnusedDefinitions(text)), { async: false });
  } catch {
    html = `<pre>${escapeHtml(text)}</pre>`;
  }
  return sanitizeSkillHtml(html, doc, options);
}
