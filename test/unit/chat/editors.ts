// Test doubles for the browser under happy-dom, which has no execCommand: what a browser
// does for execCommand('insertText'), a React-like controlled textarea, the saved composer
// shapes of test/fixtures/chat, and a watch on every way a page could be made to send.
// The real editors are tested in real browsers (test/e2e/composers).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURES = join(__dirname, '../../fixtures/chat');

export function loadFixture(name: string): void {
  const html = readFileSync(join(FIXTURES, `${name}.html`), 'utf8');
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  document.head.innerHTML = parsed.head.innerHTML;
  document.body.innerHTML = parsed.body.innerHTML;
}

export type ExecBehaviour = 'browser' | 'returns-false' | 'noop' | 'truncate' | 'throws';

export interface ExecStub {
  calls: string[];
}

const textareaValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value');
const inputValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');

/** The value a browser sees, bypassing any instance-level override a framework installed. */
export function nativeValue(el: HTMLTextAreaElement | HTMLInputElement, next?: string): string {
  const desc = el.tagName === 'TEXTAREA' ? textareaValue : inputValue;
  if (next !== undefined) desc?.set?.call(el, next);
  return String(desc?.get?.call(el) ?? '');
}

function editingHost(node: Node | null): HTMLElement | null {
  let el: Element | null = node === null ? null : node.nodeType === 1 ? (node as Element) : node.parentElement;
  let host: HTMLElement | null = null;
  while (el !== null && (el as HTMLElement).isContentEditable) {
    host = el as HTMLElement;
    el = el.parentElement;
  }
  return host;
}

function fire(el: Element, type: 'beforeinput' | 'input', data: string): boolean {
  return el.dispatchEvent(new InputEvent(type, { bubbles: true, cancelable: type === 'beforeinput', inputType: 'insertText', data }));
}

/** What a browser does for insertText at the current selection (text lines joined by <br>). */
function browserInsert(doc: Document, text: string): boolean {
  const active = doc.activeElement;
  if (active !== null && (active.tagName === 'TEXTAREA' || active.tagName === 'INPUT')) {
    const field = active as HTMLTextAreaElement;
    if (!fire(field, 'beforeinput', text)) return true;
    const value = nativeValue(field);
    const start = field.selectionStart ?? value.length;
    const end = field.selectionEnd ?? value.length;
    nativeValue(field, value.slice(0, start) + text + value.slice(end));
    field.setSelectionRange(start + text.length, start + text.length);
    fire(field, 'input', text);
    return true;
  }
  const selection = doc.getSelection();
  if (selection === null || selection.rangeCount === 0) return false;
  const range = selection.getRangeAt(0);
  const host = editingHost(range.startContainer);
  if (host === null) return false;
  if (!fire(host, 'beforeinput', text)) return true;
  range.deleteContents();
  const fragment = doc.createDocumentFragment();
  text.split('\n').forEach((line, i) => {
    if (i > 0) fragment.append(doc.createElement('br'));
    fragment.append(doc.createTextNode(line));
  });
  const last = fragment.lastChild;
  range.insertNode(fragment);
  if (last !== null) {
    range.setStartAfter(last);
    range.collapse(true);
  }
  fire(host, 'input', text);
  return true;
}

export function stubExecCommand(doc: Document, behaviour: ExecBehaviour): ExecStub {
  const stub: ExecStub = { calls: [] };
  const exec = (command: string, _ui?: boolean, value?: string): boolean => {
    stub.calls.push(command);
    if (command !== 'insertText') return false;
    const text = value ?? '';
    switch (behaviour) {
      case 'browser':
        return browserInsert(doc, text);
      case 'truncate':
        return browserInsert(doc, text.slice(0, Math.floor(text.length / 2)));
      case 'noop':
        return true;
      case 'throws':
        throw new Error('execCommand blew up');
      default:
        return false;
    }
  };
  Object.defineProperty(doc, 'execCommand', { value: exec, configurable: true, writable: true });
  return stub;
}

export function removeExecCommand(doc: Document): void {
  delete (doc as unknown as Record<string, unknown>).execCommand;
}

/** React-like controlled textarea: sees only changes that bypass its own value tracker. */
export function emulateReactTextarea(el: HTMLTextAreaElement): { state(): string } {
  let state = nativeValue(el);
  let tracked = state;
  Object.defineProperty(el, 'value', {
    configurable: true,
    get: () => nativeValue(el),
    set: (v: string) => {
      tracked = String(v);
      nativeValue(el, tracked);
    },
  });
  el.addEventListener('input', () => {
    const now = nativeValue(el);
    if (now === tracked) return;
    tracked = now;
    state = now;
  });
  return { state: () => state };
}

export interface SendWatch {
  count(): number;
  stop(): void;
}

/** Counts every way a page could be made to send: clicks, submits, Enter keys. */
export function watchSends(doc: Document): SendWatch {
  let count = 0;
  const bump = (): void => {
    count++;
  };
  const onKey = (event: Event): void => {
    if ((event as KeyboardEvent).key === 'Enter') bump();
  };
  for (const button of Array.from(doc.querySelectorAll('[data-fixture-send]'))) button.addEventListener('click', bump);
  doc.addEventListener('submit', bump, true);
  doc.addEventListener('keydown', onKey, true);
  doc.addEventListener('keypress', onKey, true);
  doc.addEventListener('keyup', onKey, true);
  const click = HTMLElement.prototype.click;
  const submit = HTMLFormElement.prototype.submit;
  const requestSubmit = HTMLFormElement.prototype.requestSubmit;
  HTMLElement.prototype.click = function (this: HTMLElement) {
    bump();
    click.call(this);
  };
  HTMLFormElement.prototype.submit = function () {
    bump();
  };
  HTMLFormElement.prototype.requestSubmit = function () {
    bump();
  };
  return {
    count: () => count,
    stop: () => {
      HTMLElement.prototype.click = click;
      HTMLFormElement.prototype.submit = submit;
      HTMLFormElement.prototype.requestSubmit = requestSubmit;
      doc.removeEventListener('submit', bump, true);
      doc.removeEventListener('keydown', onKey, true);
      doc.removeEventListener('keypress', onKey, true);
      doc.removeEventListener('keyup', onKey, true);
    },
  };
}
