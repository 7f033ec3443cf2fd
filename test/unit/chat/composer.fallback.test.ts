// @vitest-environment happy-dom
// The page fallback of findComposer: on a page no adapter knows (a user chat site) with
// nothing focused, the only or the largest visible message box; never a hidden, disabled
// or read-only one. happy-dom lays nothing out, so each field is given its box here.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHAT_ADAPTERS } from '../../../lib/chat/adapters';
import { findComposer, pageComposer } from '../../../lib/chat/composer';
import { insertIntoComposer, insertMessage } from '../../../lib/chat/insert';
import { emulateReactTextarea, removeExecCommand, stubExecCommand, watchSends, type SendWatch } from './editors';

function sized<T extends HTMLElement>(el: T, width: number, height: number): T {
  el.getBoundingClientRect = () => ({ x: 0, y: 0, top: 0, left: 0, right: width, bottom: height, width, height, toJSON: () => ({}) }) as DOMRect;
  return el;
}

function add<K extends keyof HTMLElementTagNameMap>(tag: K, id: string, width: number, height: number, attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.id = id;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  document.body.append(el);
  return sized(el, width, height);
}

let sends: SendWatch | undefined;

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  (document.activeElement as HTMLElement | null)?.blur?.();
});

afterEach(() => {
  sends?.stop();
  sends = undefined;
  removeExecCommand(document);
});

describe('pageComposer', () => {
  it('the single visible textarea', () => {
    add('input', 'search', 400, 30, { type: 'text' });
    const area = add('textarea', 'box', 300, 60);
    expect(pageComposer(document)).toBe(area);
    expect(findComposer(document, null)?.el ?? null).toBe(area);
  });

  it('the single visible contenteditable (its editing host, not an inner element)', () => {
    const host = add('div', 'rich', 500, 80, { contenteditable: 'true' });
    const inner = sized(document.createElement('p'), 500, 80);
    inner.setAttribute('contenteditable', 'true');
    host.append(inner);
    expect(findComposer(document, null)?.el ?? null).toBe(host);
  });

  it('the largest of several, the first in document order on a tie', () => {
    add('textarea', 'small', 200, 40);
    const big = add('div', 'big', 600, 90, { contenteditable: 'true' });
    add('textarea', 'medium', 600, 60);
    expect(findComposer(document, null)?.el ?? null).toBe(big);
    document.body.innerHTML = '';
    const first = add('textarea', 'first', 300, 60);
    add('div', 'second', 300, 60, { contenteditable: 'true' });
    expect(findComposer(document, null)?.el ?? null).toBe(first);
  });

  it('never a hidden, disabled or read-only field, however large', () => {
    const unusable = [
      add('textarea', 'hidden-attr', 900, 900, { hidden: '' }),
      add('textarea', 'display-none', 900, 900, { style: 'display: none' }),
      add('textarea', 'invisible', 900, 900, { style: 'visibility: hidden' }),
      add('textarea', 'transparent', 900, 900, { style: 'opacity: 0' }),
      add('textarea', 'no-size', 0, 0),
      add('textarea', 'disabled', 900, 900, { disabled: '' }),
      add('textarea', 'readonly', 900, 900, { readonly: '' }),
      add('div', 'aria-readonly', 900, 900, { contenteditable: 'true', 'aria-readonly': 'true' }),
      add('div', 'aria-disabled', 900, 900, { contenteditable: 'true', 'aria-disabled': 'true' }),
      add('div', 'not-editable', 900, 900, { contenteditable: 'false' }),
    ];
    const wrapper = document.createElement('div');
    wrapper.setAttribute('inert', '');
    wrapper.append(sized(document.createElement('textarea'), 900, 900));
    document.body.append(wrapper);
    expect(findComposer(document, null)?.el ?? null).toBeNull();
    const small = add('textarea', 'small', 100, 20);
    expect(findComposer(document, null)?.el ?? null).toBe(small);
    expect(unusable).not.toContain(findComposer(document, null)?.el ?? null);
  });

  it('never a single-line input', () => {
    add('input', 'title', 900, 40, { type: 'text' });
    add('input', 'query', 900, 40, { type: 'search' });
    expect(findComposer(document, null)?.el ?? null).toBeNull();
  });
});

describe('findComposer order', () => {
  it('a focused editable field wins over the largest one', () => {
    add('textarea', 'big', 900, 300);
    const small = add('textarea', 'small', 100, 20);
    small.focus();
    expect(findComposer(document, null)?.el ?? null).toBe(small);
  });

  it('focus on <body> or on something that is not a composer falls back to the page', () => {
    const box = add('textarea', 'box', 600, 80);
    expect(document.activeElement).toBe(document.body);
    expect(findComposer(document, null)?.el ?? null).toBe(box);
    const button = add('button', 'send', 80, 30);
    button.focus();
    expect(document.activeElement).toBe(button);
    expect(findComposer(document, null)?.el ?? null).toBe(box);
    const locked = add('textarea', 'locked', 900, 400, { readonly: '' });
    locked.focus();
    expect(findComposer(document, null)?.el ?? null).toBe(box);
  });

  it('a known site whose selectors match nothing does not guess', () => {
    add('textarea', 'box', 600, 80);
    const claude = CHAT_ADAPTERS.find((a) => a.id === 'claude') ?? null;
    expect(claude).not.toBeNull();
    expect(findComposer(document, claude)?.el ?? null).toBeNull();
  });
});

describe('insertIntoComposer on a page without an adapter, nothing focused', () => {
  it('inserts into the largest message box, exactly once, and presses nothing', async () => {
    const form = document.createElement('form');
    document.body.append(form);
    const area = sized(document.createElement('textarea'), 700, 120);
    const other = sized(document.createElement('div'), 300, 60);
    other.setAttribute('contenteditable', 'true');
    const send = document.createElement('button');
    send.type = 'submit';
    send.setAttribute('data-fixture-send', '');
    form.append(area, other, send);
    const state = emulateReactTextarea(area);
    stubExecCommand(document, 'browser');
    sends = watchSends(document);
    const text = '<skill>\nline one\nline two\n</skill>';
    const result = await insertIntoComposer(document, text, { adapter: null, settleMs: 20 });
    expect(result.ok).toBe(true);
    expect(area.value).toBe(text);
    expect(state.state()).toBe(text);
    expect(other.textContent).toBe('');
    expect(sends.count()).toBe(0);
  });

  it('no usable field: no composer, nothing touched', async () => {
    add('textarea', 'locked', 600, 80, { readonly: '' });
    add('input', 'search', 600, 40, { type: 'text' });
    const exec = stubExecCommand(document, 'browser');
    const result = await insertIntoComposer(document, 'text', { adapter: null, settleMs: 20 });
    expect(result).toEqual({ ok: false, method: 'none', message: insertMessage('noComposer') });
    expect(exec.calls).toEqual([]);
  });
});
