// Finding a chat composer in a page, reading its text back, and placing the caret.
// Runs in a page (content script): DOM only, no extension APIs.
import type { ChatAdapter } from './adapters';

const TEXT_INPUT_TYPES = new Set(['', 'text', 'search', 'url', 'email']);

export type TextField = HTMLTextAreaElement | HTMLInputElement;

export function isTextField(el: Element): el is TextField {
  const tag = el.tagName.toLowerCase();
  if (tag === 'textarea') return true;
  if (tag !== 'input') return false;
  return TEXT_INPUT_TYPES.has((el.getAttribute('type') ?? '').toLowerCase());
}

function isContentEditable(el: Element): el is HTMLElement {
  return (el as HTMLElement).isContentEditable === true;
}

/** The editable field `el` belongs to (the textarea/input itself, or the contenteditable host), or null. */
export function editableRoot(el: Element | null): HTMLElement | null {
  if (el === null) return null;
  if (isTextField(el)) {
    const field = el as TextField;
    return field.disabled || field.readOnly ? null : field;
  }
  if (!isContentEditable(el)) return null;
  let host: HTMLElement = el;
  for (let parent = host.parentElement; parent !== null && isContentEditable(parent); parent = parent.parentElement) host = parent;
  return host;
}

function isShown(el: Element): boolean {
  if (el.closest('[hidden],[inert]') !== null) return false;
  const check = (el as Element & { checkVisibility?: (o?: object) => boolean }).checkVisibility;
  if (typeof check === 'function') {
    try {
      return check.call(el, { visibilityProperty: true });
    } catch {
      return true;
    }
  }
  return true;
}

/** The element that has focus, looking through open shadow roots. */
export function deepActiveElement(doc: Document): Element | null {
  let active: Element | null = doc.activeElement;
  while (active !== null && active.shadowRoot !== null && active.shadowRoot.activeElement !== null) {
    active = active.shadowRoot.activeElement;
  }
  return active;
}

function area(el: Element): number {
  try {
    const rect = el.getBoundingClientRect();
    return Math.max(0, rect.width) * Math.max(0, rect.height);
  } catch {
    return 0;
  }
}

/** Not marked read-only or disabled for assistive technology (contenteditable widgets say so this way). */
function isWritable(el: Element): boolean {
  return el.getAttribute('aria-readonly') !== 'true' && el.getAttribute('aria-disabled') !== 'true';
}

/**
 * The page's message box when nothing tells which field it is (no adapter, no focus): every
 * textarea and contenteditable host that is enabled, writable, displayed, not transparent
 * and has a size; the only one, else the largest (the first in document order on a tie).
 * Single-line inputs are left out: on a page without an adapter they are search boxes.
 */
export function pageComposer(doc: Document): HTMLElement | null {
  let best: HTMLElement | null = null;
  let bestArea = 0;
  let candidates: NodeListOf<Element>;
  try {
    candidates = doc.querySelectorAll('textarea, [contenteditable]');
  } catch {
    return null;
  }
  for (const el of Array.from(candidates)) {
    const root = editableRoot(el);
    if (root === null || root !== el || !isWritable(root) || !isShown(root)) continue;
    const check = (root as Element & { checkVisibility?: (o?: object) => boolean }).checkVisibility;
    if (typeof check === 'function' && !check.call(root, { opacityProperty: true, visibilityProperty: true })) continue;
    const size = area(root);
    if (size > bestArea) {
      best = root;
      bestArea = size;
    }
  }
  return best;
}

/**
 * The adapter's composer, else the focused editable field, else — on a page no adapter
 * knows — the page's only or largest message box (pageComposer), else null.
 */
export function findComposer(doc: Document, adapter: ChatAdapter | null, target: Element | null = null): HTMLElement | null {
  if (target !== null) {
    const root = editableRoot(target);
    if (root !== null) return root;
  }
  if (adapter !== null) {
    for (const selector of adapter.composer) {
      let matches: NodeListOf<Element>;
      try {
        matches = doc.querySelectorAll(selector);
      } catch {
        continue;
      }
      for (const el of Array.from(matches)) {
        const root = editableRoot(el);
        if (root !== null && root === el && isShown(el)) return root;
      }
    }
  }
  const focused = editableRoot(deepActiveElement(doc));
  if (focused !== null && isShown(focused)) return focused;
  // A click in the extension's popup leaves the chat tab's focus where it was, often on <body>.
  return adapter === null ? pageComposer(doc) : null;
}

const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'ol', 'p', 'pre', 'section', 'table', 'tr', 'ul',
]);

/** The composer's text: a field's value, or a contenteditable's text with blocks and <br> as newlines. */
export function readComposerText(el: HTMLElement): string {
  if (isTextField(el)) return el.value;
  const parts: string[] = [];
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === 3) {
        parts.push((child as Text).data);
      } else if (child.nodeType === 1) {
        const tag = (child as Element).tagName.toLowerCase();
        if (tag === 'br') {
          parts.push('\n');
          continue;
        }
        if (tag === 'script' || tag === 'style' || tag === 'template') continue;
        const block = BLOCK_TAGS.has(tag);
        if (block) parts.push('\n');
        walk(child);
        if (block) parts.push('\n');
      }
    }
  };
  walk(el);
  return parts.join('');
}

/**
 * Text for comparing what was inserted with what the composer holds: editors turn "\n" into
 * paragraphs or <br>, collapse spaces and drop invisible characters, so all of those go.
 */
export function normalizeForCompare(text: string): string {
  return text.replace(/[\s\u200b-\u200d\u2060\ufeff]/g, '');
}

export function countOccurrences(haystack: string, needle: string): number {
  if (needle.length === 0) return 0;
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** Focuses the composer and puts a collapsed caret at the end of its content. */
export function focusAtEnd(doc: Document, el: HTMLElement): void {
  try {
    el.focus();
  } catch {
    // A page may override focus(); the caret placement below still applies.
  }
  if (isTextField(el)) {
    const end = el.value.length;
    try {
      el.setSelectionRange(end, end);
    } catch {
      // Some input types have no selection API.
    }
    return;
  }
  const selection = doc.getSelection();
  if (selection === null) return;
  const range = doc.createRange();
  // Descend to the last leaf so the caret lands inside the last paragraph, not after it.
  let node: Node = el;
  while (node.lastChild !== null) {
    const last: ChildNode = node.lastChild;
    if (last.nodeType === 1 && (last as Element).tagName.toLowerCase() === 'br') {
      range.setStartBefore(last);
      range.collapse(true);
      selection.removeAllRanges();
      selection.addRange(range);
      return;
    }
    if (last.nodeType !== 1 && last.nodeType !== 3) break;
    node = last;
  }
  if (node.nodeType === 3) range.setStart(node, (node as Text).data.length);
  else range.selectNodeContents(node);
  range.collapse(false);
  selection.removeAllRanges();
  selection.addRange(range);
}
