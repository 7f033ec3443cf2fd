// Inserting the skill context into a chat composer (PRODUCT.md §6). Runs in a page.
//
// The method follows the editor behind the composer (adapters.ts, or recognised from the
// element), because no one method keeps the lines in every editor (docs/chat-sites.md
// has the measurements behind this table):
// - textarea: execCommand('insertText') with the whole text (trusted input events that
//   React and others listen to, native undo), else the native value setter plus an input
//   event.
// - prosemirror (ChatGPT, Claude, Le Chat): execCommand('insertText') with the whole
//   text. The browser makes it one DOM change that ProseMirror parses into paragraphs,
//   spaces kept, and no input rule runs on it. Opening paragraphs one at a time would look
//   to ProseMirror like Enter, which these sites bind to Send.
// - quill (Gemini): a line at a time, execCommand('insertParagraph') between lines.
//   An insertText that carries "\n" loses it (Firefox glues the lines, the live Gemini
//   drops them); insertParagraph is no key press, so Quill's Enter binding (Send) stays out.
// - lexical (Perplexity): Lexical takes text only from beforeinput, which execCommand
//   does not fire in Chromium or Firefox. A beforeinput of type insertReplacementText
//   carrying the text in a DataTransfer goes through Lexical's own text insertion (lines
//   become paragraphs or line breaks, as the site's plugin decides) and is no paste, so the
//   site's paste handler, which turns long text into an attachment, is not involved.
// - contenteditable (any other editor): execCommand('insertText') with the whole text.
// No method is a synthetic paste: the chat sites turn a long paste into an attachment chip.
//
// After a method, the composer is read back as lines: it must hold what it held before
// plus every line of the block, in order, with its leading spaces, exactly once, and hold
// it again once the editor has settled. A method that changed the composer without that
// result is undone (the editor's own undo, else the saved value) before the next method or
// the failure answer, so a failed attempt leaves the composer as it was. Nothing here
// clicks, submits or dispatches a key event: sending stays with the user.
import { adapterForHost, type ChatAdapter, type EditorKind } from './adapters';
import { findComposer, focusAtEnd, isBlank, isTextField, normalizeLine, readComposerLines, type FoundComposer } from './composer';
import { t, type MessageKey } from '../i18n';

/** The answer to skillpin:insert and to the content script's insertion (lib/messages/ re-exports it). */
export interface InsertResult {
  ok: boolean;
  /** How the text got in, or `clipboard` when insertion failed and the text was copied instead. */
  method: InsertMethod | 'clipboard' | 'none';
  message: string;
  /** Why nothing was inserted, for code to act on (`message` is for people, in their language). */
  error?: 'navigated-away';
}

export interface InsertOptions {
  /** The site adapter; undefined picks it from the document's hostname, null means none. */
  adapter?: ChatAdapter | null;
  /** A field to insert into (e.g. the element a context menu was opened on). */
  target?: Element | null;
  /** How long an editor gets to settle before a read-back counts, and again to confirm it (ms). */
  settleMs?: number;
}

export type InsertMethod = 'insert-text' | 'insert-lines' | 'replacement-text' | 'value-setter';

/** The methods tried for each editor, in order (see the header). */
export const METHODS_BY_EDITOR: Readonly<Record<EditorKind, readonly InsertMethod[]>> = {
  textarea: ['insert-text', 'value-setter'],
  prosemirror: ['insert-text'],
  quill: ['insert-lines'],
  lexical: ['replacement-text'],
  contenteditable: ['insert-text'],
};

const DEFAULT_SETTLE_MS = 150;
/** Undo steps tried to put a composer back (editors group an insertion into one or a few). */
const MAX_UNDO_STEPS = 8;

/** The catalogue keys of what an insert answers (lib/i18n: the content script reads the extension's catalogue). */
export const INSERT_MESSAGES = {
  empty: 'insert_empty',
  noComposer: 'insert_no_composer',
  success: 'insert_success',
  rejected: 'insert_rejected',
  partial: 'insert_partial',
  failed: 'insert_failed_page',
} as const satisfies Record<string, MessageKey>;

/** What an insert answers, in the browser's language. */
export function insertMessage(kind: keyof typeof INSERT_MESSAGES): string {
  return t(INSERT_MESSAGES[kind]);
}

type Win = Window & typeof globalThis;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function exec(doc: Document, command: string, value?: string): void {
  const fn = (doc as Document & { execCommand?: unknown }).execCommand;
  if (typeof fn === 'function') fn.call(doc, command, false, value);
}

/**
 * The page's own window. In a Firefox content script the window is an Xray view and an
 * event built with its constructors reaches page scripts without its DataTransfer, so
 * synthetic events are built with the page's constructors there (`wrappedJSObject`,
 * https://developer.mozilla.org/en-US/docs/Mozilla/Add-ons/WebExtensions/Sharing_objects_with_page_scripts).
 * Elsewhere it is the window itself.
 */
function pageWindow(win: Win): Win {
  return (win as Win & { wrappedJSObject?: Win }).wrappedJSObject ?? win;
}

/** A beforeinput event the page's editor reads in full, built in the page's own realm. */
function beforeInput(win: Win, inputType: string, dataTransfer: DataTransfer | null = null): InputEvent {
  const page = pageWindow(win);
  const init = new page.Object() as Record<string, unknown>;
  init.inputType = inputType;
  init.bubbles = true;
  init.cancelable = true;
  init.composed = true;
  if (dataTransfer !== null) init.dataTransfer = dataTransfer;
  return new page.InputEvent('beforeinput', init as InputEventInit);
}

function insertLines(doc: Document, block: string): void {
  block.split('\n').forEach((line, i) => {
    if (i > 0) exec(doc, 'insertParagraph');
    if (line !== '') exec(doc, 'insertText', line);
  });
}

function replacementText(win: Win, el: HTMLElement, block: string): void {
  const data = new (pageWindow(win).DataTransfer)();
  data.setData('text/plain', block);
  el.dispatchEvent(beforeInput(win, 'insertReplacementText', data));
}

function inputEvent(win: Win, inputType: string, data: string | null): Event {
  try {
    return new win.InputEvent('input', { bubbles: true, inputType, data });
  } catch {
    return new win.Event('input', { bubbles: true });
  }
}

/** Sets a text field's value through the prototype setter (frameworks track the value there) and says so. */
function setFieldValue(win: Win, el: HTMLTextAreaElement | HTMLInputElement, value: string, inserted: string | null): void {
  const proto = el.tagName.toLowerCase() === 'textarea' ? win.HTMLTextAreaElement.prototype : win.HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter === undefined) return;
  setter.call(el, value);
  el.dispatchEvent(inputEvent(win, inserted === null ? 'historyUndo' : 'insertText', inserted));
  el.dispatchEvent(new win.Event('change', { bubbles: true }));
}

function run(method: InsertMethod, doc: Document, win: Win, el: HTMLElement, block: string): void {
  if (method === 'insert-text') exec(doc, 'insertText', block);
  else if (method === 'insert-lines') insertLines(doc, block);
  else if (method === 'replacement-text') replacementText(win, el, block);
  else if (isTextField(el)) setFieldValue(win, el, el.value + block, block);
}

/** The composer to read: the same element, or its replacement when the editor re-rendered it. */
function current(doc: Document, found: FoundComposer, adapter: ChatAdapter | null): HTMLElement {
  if (found.el.isConnected) return found.el;
  return findComposer(doc, adapter)?.el ?? found.el;
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => normalizeLine(line) === normalizeLine(b[i] ?? ''));
}

/** What the composer must show after the block went in at its end (one trailing empty line is allowed too). */
export function expectedLines(before: readonly string[], block: string): string[] {
  const added = block.split('\n');
  const head = before.slice(0, -1);
  const last = before[before.length - 1] ?? '';
  return [...head, last + (added[0] ?? ''), ...added.slice(1)];
}

function holds(lines: readonly string[], expected: readonly string[]): boolean {
  return sameLines(lines, expected) || (lines[lines.length - 1] === '' && sameLines(lines.slice(0, -1), expected));
}

type Outcome = 'inserted' | 'unchanged' | 'changed';

/** Waits up to `settleMs` for the expected lines, then confirms them once more after another `settleMs`. */
async function confirm(read: () => string[], before: readonly string[], expected: readonly string[], settleMs: number): Promise<Outcome> {
  const started = Date.now();
  for (;;) {
    await Promise.resolve();
    const lines = read();
    if (holds(lines, expected)) break;
    const left = settleMs - (Date.now() - started);
    if (left <= 0) return sameLines(lines, before) ? 'unchanged' : 'changed';
    await sleep(Math.min(25, left));
  }
  await sleep(settleMs);
  const lines = read();
  if (holds(lines, expected)) return 'inserted';
  return sameLines(lines, before) ? 'unchanged' : 'changed';
}

function historyStep(doc: Document, win: Win, el: HTMLElement, inputType: 'historyUndo' | 'historyRedo'): void {
  focusAtEnd(doc, el);
  if (isTextField(el)) exec(doc, inputType === 'historyUndo' ? 'undo' : 'redo');
  else el.dispatchEvent(beforeInput(win, inputType));
}

/** True when `lines` still starts with everything `before` held (its last line may have grown). */
function keepsBefore(lines: readonly string[], before: readonly string[]): boolean {
  if (lines.length < before.length) return false;
  return before.every((line, i) => (i === before.length - 1 ? normalizeLine(lines[i] ?? '').startsWith(normalizeLine(line)) : normalizeLine(lines[i] ?? '') === normalizeLine(line)));
}

/** Empties a composer whose whole content is the failed block: select it all, delete it as an edit the editor sees. */
function deleteAll(doc: Document, win: Win, el: HTMLElement, editor: EditorKind): void {
  el.focus();
  const selection = doc.getSelection();
  if (selection === null) return;
  const range = doc.createRange();
  range.selectNodeContents(el);
  selection.removeAllRanges();
  selection.addRange(range);
  if (editor === 'lexical') el.dispatchEvent(beforeInput(win, 'deleteContentBackward'));
  else exec(doc, 'delete');
}

/**
 * Puts the composer back as it was: the editor's own undo (a beforeinput historyUndo,
 * which ProseMirror's, Quill's and Lexical's history handle; execCommand('undo') for a
 * text field), step by step while it changes something. An undo that also took away what
 * the user had typed (editors group edits made close together) is redone, and a composer
 * that was empty is emptied instead. A text field gets its saved value last. True when the
 * composer shows `before` again.
 */
async function restore(doc: Document, win: Win, found: FoundComposer, read: () => HTMLElement, before: readonly string[], savedValue: string | null): Promise<boolean> {
  // The composer's lines once the editor has had 25 ms to apply the last step.
  const settled = (): Promise<string[]> => sleep(25).then(() => readComposerLines(read()));
  let lines = readComposerLines(read());
  for (let step = 0; step < MAX_UNDO_STEPS && !sameLines(lines, before); step++) {
    historyStep(doc, win, read(), 'historyUndo');
    const next = await settled();
    if (sameLines(next, lines)) break;
    if (!keepsBefore(next, before)) {
      historyStep(doc, win, read(), 'historyRedo');
      lines = await settled();
      break;
    }
    lines = next;
  }
  const el = read();
  if (!sameLines(lines, before) && isBlank(before) && !isTextField(el)) {
    deleteAll(doc, win, el, found.editor);
    lines = await settled();
  }
  if (!sameLines(lines, before) && savedValue !== null && isTextField(el)) {
    setFieldValue(win, el, savedValue, null);
    lines = await settled();
  }
  return sameLines(lines, before);
}

/** Line ends as LF: what every editor keeps of a CR LF. */
function toLf(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

export async function insertIntoComposer(doc: Document, text: string, opts: InsertOptions = {}): Promise<InsertResult> {
  try {
    if (typeof text !== 'string' || isBlank(toLf(text).split('\n'))) return { ok: false, method: 'none', message: insertMessage('empty') };
    const win = doc.defaultView as Win | null;
    if (win === null) return { ok: false, method: 'none', message: insertMessage('noComposer') };
    const adapter = opts.adapter === undefined ? adapterForHost(doc.location?.hostname ?? '') : opts.adapter;
    const found = findComposer(doc, adapter, opts.target ?? null);
    if (found === null) return { ok: false, method: 'none', message: insertMessage('noComposer') };
    const settleMs = Math.max(0, opts.settleMs ?? DEFAULT_SETTLE_MS);
    const read = (): HTMLElement => current(doc, found, adapter);

    const before = readComposerLines(found.el);
    const savedValue = isTextField(found.el) ? found.el.value : null;
    // What the user already typed stays on its own lines, above the block.
    const lastLine = before[before.length - 1] ?? '';
    const block = (isBlank(before) || normalizeLine(lastLine).trim() === '' ? '' : '\n') + toLf(text);
    const expected = expectedLines(before, block);

    for (const method of METHODS_BY_EDITOR[found.editor]) {
      const el = read();
      focusAtEnd(doc, el);
      try {
        run(method, doc, win, el, block);
      } catch {
        // A throwing method counts as one that did nothing; the read-back decides.
      }
      const outcome = await confirm(() => readComposerLines(read()), before, expected, settleMs);
      if (outcome === 'inserted') return { ok: true, method, message: insertMessage('success') };
      if (outcome === 'changed' && !(await restore(doc, win, found, read, before, savedValue))) {
        return { ok: false, method: 'none', message: insertMessage('partial') };
      }
    }
    return { ok: false, method: 'none', message: insertMessage('rejected') };
  } catch {
    return { ok: false, method: 'none', message: insertMessage('failed') };
  }
}
