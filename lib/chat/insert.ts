// Inserting the skill context into a chat composer (PRODUCT.md §6). Runs in a page.
//
// Order: execCommand('insertText') (trusted beforeinput/input events every editor
// understands, undo works), then a synthetic paste carrying text/plain (editors insert
// it through their own paste path), then — for textarea/input only — the native value
// setter plus an input event (frameworks that track the value see the change). After
// each attempt the composer is read back; only a read-back that shows one more copy of
// the text than before counts. If an attempt changed the composer without confirming,
// no further method is tried (it would insert a second copy) and the result says so.
// Nothing here clicks, submits or dispatches a key event: sending stays with the user.
import type { InsertResult } from '../messages';
import { adapterForHost, type ChatAdapter } from './adapters';
import { countOccurrences, findComposer, focusAtEnd, isTextField, normalizeForCompare, readComposerText } from './composer';

export interface InsertOptions {
  /** The site adapter; undefined picks it from the document's hostname, null means none. */
  adapter?: ChatAdapter | null;
  /** A field to insert into (e.g. the element a context menu was opened on). */
  target?: Element | null;
  /** How long to wait for an editor that updates asynchronously before reading back (ms). */
  settleMs?: number;
}

type Method = 'execCommand' | 'paste' | 'value-setter';

const DEFAULT_SETTLE_MS = 150;

export const INSERT_MESSAGES = {
  empty: 'There is nothing to insert.',
  noComposer: 'No message box found on this page. Click into the chat message box and try again.',
  partial:
    'The message box changed but does not hold the whole skill. Check the message box before sending anything.',
  rejected: 'The message box did not accept the text.',
  failed: 'Inserting into the message box failed.',
} as const;

function successMessage(method: Method): string {
  const how = method === 'execCommand' ? 'typed input' : method === 'paste' ? 'a paste' : 'a field update';
  return `Skill inserted into the message box (${how}). Review it, then send it yourself.`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function execInsert(doc: Document, text: string): void {
  const exec = (doc as Document & { execCommand?: unknown }).execCommand;
  if (typeof exec !== 'function') return;
  exec.call(doc, 'insertText', false, text);
}

function makePasteEvent(win: Window & typeof globalThis, text: string): Event {
  try {
    const data = new win.DataTransfer();
    data.setData('text/plain', text);
    const event = new win.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true });
    if (event.clipboardData !== null && event.clipboardData.getData('text/plain') === text) return event;
  } catch {
    // Fall through to a plain event carrying a minimal clipboardData.
  }
  const event = new win.Event('paste', { bubbles: true, cancelable: true, composed: true });
  const clipboardData = {
    types: ['text/plain'],
    files: [],
    items: [],
    getData: (type: string): string => (type === 'text/plain' || type === 'text' ? text : ''),
  };
  Object.defineProperty(event, 'clipboardData', { value: clipboardData });
  return event;
}

function pasteInsert(win: Window & typeof globalThis, el: HTMLElement, text: string): void {
  el.dispatchEvent(makePasteEvent(win, text));
}

function setterInsert(win: Window & typeof globalThis, el: HTMLTextAreaElement | HTMLInputElement, text: string): void {
  const proto = el.tagName.toLowerCase() === 'textarea' ? win.HTMLTextAreaElement.prototype : win.HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter === undefined) return;
  setter.call(el, el.value + text);
  let input: Event;
  try {
    input = new win.InputEvent('input', { bubbles: true, inputType: 'insertText', data: text });
  } catch {
    input = new win.Event('input', { bubbles: true });
  }
  el.dispatchEvent(input);
  el.dispatchEvent(new win.Event('change', { bubbles: true }));
}

/** The composer to read back: the same element, or its replacement when the editor re-rendered it. */
function currentComposer(doc: Document, el: HTMLElement, adapter: ChatAdapter | null): HTMLElement {
  if (el.isConnected) return el;
  return findComposer(doc, adapter) ?? el;
}

export async function insertIntoComposer(doc: Document, text: string, opts: InsertOptions = {}): Promise<InsertResult> {
  try {
    if (typeof text !== 'string' || normalizeForCompare(text).length === 0) {
      return { ok: false, method: 'none', message: INSERT_MESSAGES.empty };
    }
    const win = doc.defaultView as (Window & typeof globalThis) | null;
    if (win === null) return { ok: false, method: 'none', message: INSERT_MESSAGES.noComposer };
    const adapter = opts.adapter === undefined ? adapterForHost(doc.location?.hostname ?? '') : opts.adapter;
    const composer = findComposer(doc, adapter, opts.target ?? null);
    if (composer === null) return { ok: false, method: 'none', message: INSERT_MESSAGES.noComposer };
    const settleMs = Math.max(0, opts.settleMs ?? DEFAULT_SETTLE_MS);
    const wanted = normalizeForCompare(text);

    const methods: Method[] = isTextField(composer) ? ['execCommand', 'paste', 'value-setter'] : ['execCommand', 'paste'];
    let el = composer;
    for (const method of methods) {
      const before = normalizeForCompare(readComposerText(el));
      const baseline = countOccurrences(before, wanted);
      focusAtEnd(doc, el);
      try {
        if (method === 'execCommand') execInsert(doc, text);
        else if (method === 'paste') pasteInsert(win, el, text);
        else if (isTextField(el)) setterInsert(win, el, text);
      } catch {
        // A throwing method counts as one that did nothing; the read-back decides.
      }
      let after = before;
      const started = Date.now();
      for (;;) {
        await Promise.resolve();
        el = currentComposer(doc, el, adapter);
        after = normalizeForCompare(readComposerText(el));
        if (countOccurrences(after, wanted) > baseline) return { ok: true, method, message: successMessage(method) };
        const left = settleMs - (Date.now() - started);
        if (left <= 0) break;
        await sleep(Math.min(25, left));
      }
      if (after !== before) return { ok: false, method: 'none', message: INSERT_MESSAGES.partial };
    }
    return { ok: false, method: 'none', message: INSERT_MESSAGES.rejected };
  } catch {
    return { ok: false, method: 'none', message: INSERT_MESSAGES.failed };
  }
}
