// Finding a chat composer in a page, reading its lines back, and placing the caret.
// Runs in a page (content script): DOM only, no extension APIs.
import type { ChatAdapter, EditorKind } from './adapters';

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
  if (isTextField(el)) return el.disabled || el.readOnly ? null : el;
  if (!isContentEditable(el)) return null;
  let host: HTMLElement = el;
  for (let parent = host.parentElement; parent !== null && isContentEditable(parent); parent = parent.parentElement) host = parent;
  return host;
}

function isShown(el: Element): boolean {
  if (el.closest('[hidden],[inert]') !== null) return false;
  const check = (el as Element & { checkVisibility?: (o?: object) => boolean }).checkVisibility;
  if (typeof check !== 'function') return true;
  try {
    return check.call(el, { visibilityProperty: true });
  } catch {
    return true;
  }
}

/** The element that has focus, looking through open shadow roots. */
export function deepActiveElement(doc: Document): Element | null {
  let active: Element | null = doc.activeElement;
  while (active !== null && active.shadowRoot !== null && active.shadowRoot.activeElement !== null) {
    active = active.shadowRoot.activeElement;
  }
  return active;
}

/** The elements `selector` matches in document order; none when the selector is invalid. */
function queryAll(doc: Document, selector: string): Element[] {
  try {
    return Array.from(doc.querySelectorAll(selector));
  } catch {
    return [];
  }
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
  for (const el of queryAll(doc, 'textarea, [contenteditable]')) {
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

export interface FoundComposer {
  el: HTMLElement;
  editor: EditorKind;
  /** The adapter selector that matched, or null when the field was found another way. */
  selector: string | null;
}

/** The editor behind an editable element, recognised from the marks each editor leaves. */
export function editorOf(el: HTMLElement): EditorKind {
  if (isTextField(el)) return 'textarea';
  if (el.classList.contains('ProseMirror')) return 'prosemirror';
  if (el.classList.contains('ql-editor')) return 'quill';
  if (el.getAttribute('data-lexical-editor') === 'true') return 'lexical';
  return 'contenteditable';
}

/** Inside a part the adapter excludes (never, without an adapter). */
function excluded(el: Element, adapter: ChatAdapter | null): boolean {
  for (const selector of adapter?.exclude ?? []) {
    try {
      if (el.closest(selector) !== null) return true;
    } catch {
      // An invalid exclusion excludes nothing.
    }
  }
  return false;
}

function found(el: HTMLElement, selector: string | null, editor?: EditorKind): FoundComposer {
  // A text field is a text field whatever the row says (a site that went back to a textarea).
  return { el, editor: isTextField(el) ? 'textarea' : (editor ?? editorOf(el)), selector };
}

/**
 * The field a context menu was opened on, else the adapter's composer (first selector
 * with a shown, writable match outside the excluded parts), else the focused editable
 * field, else — on a page no adapter knows — the page's only or largest message box
 * (pageComposer), else null.
 */
export function findComposer(doc: Document, adapter: ChatAdapter | null, target: Element | null = null): FoundComposer | null {
  if (target !== null) {
    const root = editableRoot(target);
    if (root !== null && !excluded(root, adapter)) return found(root, null);
  }
  if (adapter !== null) {
    for (const { selector, editor } of adapter.composer) {
      for (const el of queryAll(doc, selector)) {
        const root = editableRoot(el);
        if (root !== null && root === el && isWritable(el) && isShown(el) && !excluded(el, adapter)) return found(root, selector, editor);
      }
    }
  }
  const focused = editableRoot(deepActiveElement(doc));
  if (focused !== null && isShown(focused) && !excluded(focused, adapter)) return found(focused, null);
  // A click in the extension's popup leaves the chat tab's focus where it was, often on <body>.
  const any = adapter === null ? pageComposer(doc) : null;
  return any === null ? null : found(any, null);
}

const BLOCK_TAGS = new Set('address|article|aside|blockquote|dd|div|dl|dt|figcaption|figure|footer|h1|h2|h3|h4|h5|h6|header|hr|li|ol|p|pre|section|table|tr|ul'.split('|'));

const SKIPPED_TAGS = new Set(['script', 'style', 'template', 'img', 'svg', 'canvas', 'video', 'audio']);

type Token = { kind: 'text'; text: string } | { kind: 'br' } | { kind: 'block'; el: Element };

/** A block's content in order: text, line breaks, and the blocks nested in it. */
function tokensOf(block: Element): Token[] {
  const out: Token[] = [];
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const text = (child as Text).data;
        if (text.length > 0) out.push({ kind: 'text', text });
      } else if (child.nodeType === 1) {
        const el = child as Element;
        const tag = el.tagName.toLowerCase();
        if (SKIPPED_TAGS.has(tag) || el.getAttribute('contenteditable') === 'false') continue;
        if (tag === 'br') out.push({ kind: 'br' });
        else if (BLOCK_TAGS.has(tag)) out.push({ kind: 'block', el });
        else walk(el);
      }
    }
  };
  walk(block);
  return out;
}

/**
 * The lines a block shows: its text split at <br> and at "\n" (the composers render
 * white-space: pre-wrap), one line at least, nested blocks in place. A <br> that ends the
 * block is the placeholder editors put in an empty or line-break-ended paragraph, not a
 * line of its own.
 */
function blockLines(block: Element): string[] {
  const lines: string[] = [];
  let current: string | null = null;
  const tokens = tokensOf(block);
  tokens.forEach((token, i) => {
    if (token.kind === 'text') {
      const parts = token.text.split('\n');
      current = (current ?? '') + parts[0];
      for (const part of parts.slice(1)) {
        lines.push(current);
        current = part;
      }
    } else if (token.kind === 'br') {
      if (i === tokens.length - 1) {
        current = current ?? '';
      } else {
        lines.push(current ?? '');
        current = '';
      }
    } else {
      if (current !== null) lines.push(current);
      current = null;
      lines.push(...blockLines(token.el));
    }
  });
  if (current !== null) lines.push(current);
  if (lines.length === 0) lines.push('');
  return lines;
}

/**
 * The composer's content as lines, as the user sees them: a field's value split at
 * "\n", or a contenteditable's blocks and line breaks. An empty composer is one empty line.
 */
export function readComposerLines(el: HTMLElement): string[] {
  return isTextField(el) ? el.value.split('\n') : blockLines(el);
}

/** The same text for both sides of a comparison: line ends as LF, NBSP as a space, no zero-width characters. */
export function normalizeLine(line: string): string {
  return line.replace(/\u00a0/g, ' ').replace(/[\u200b\u2060\ufeff]/g, '');
}

/** True when the composer shows nothing but whitespace. */
export function isBlank(lines: readonly string[]): boolean {
  return lines.every((line) => normalizeLine(line).trim() === '');
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
