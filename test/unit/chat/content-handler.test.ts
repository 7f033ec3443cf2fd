// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CLIPBOARD_HINT,
  claimListenerSlot,
  handleContentInsert,
  isFromExtension,
  MAX_INSERT_CHARS,
  NO_CLIPBOARD_HINT,
  onContentMessage,
  parseContentInsert,
} from '../../../lib/chat/content-handler';
import { INSERT_MESSAGES } from '../../../lib/chat/insert';
import { NOTICE_TAG, showNotice } from '../../../lib/chat/notice';
import type { InsertResult } from '../../../lib/messages';
import { emulateProseMirror, loadFixture, removeExecCommand, stubExecCommand, watchSends, type SendWatch } from './editors';

const ID = 'skillpin-extension-id';
const BG = { id: ID, url: 'chrome-extension://skillpin-extension-id/background.js' };

let sends: SendWatch | null = null;

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  for (const n of Array.from(document.querySelectorAll(NOTICE_TAG))) n.remove();
});

afterEach(() => {
  sends?.stop();
  sends = null;
  removeExecCommand(document);
  vi.useRealTimers();
});

describe('sender and message checks', () => {
  it('accepts only this extension, never a tab', () => {
    expect(isFromExtension(BG, ID)).toBe(true);
    expect(isFromExtension({ id: ID, tab: { id: 3 } }, ID)).toBe(false);
    expect(isFromExtension({ id: 'other-extension' }, ID)).toBe(false);
    expect(isFromExtension({}, ID)).toBe(false);
    expect(isFromExtension(null, ID)).toBe(false);
    expect(isFromExtension('x', ID)).toBe(false);
    expect(isFromExtension({ id: '' }, '')).toBe(false);
  });

  it('parses only well-formed insert messages', () => {
    expect(parseContentInsert({ type: 'skillpin:content-insert', text: 'hi', extra: 1 })).toEqual({ type: 'skillpin:content-insert', text: 'hi' });
    expect(parseContentInsert({ type: 'skillpin:content-insert', text: '' })).toBeNull();
    expect(parseContentInsert({ type: 'skillpin:content-insert', text: 5 })).toBeNull();
    expect(parseContentInsert({ type: 'skillpin:content-insert', text: 'x'.repeat(MAX_INSERT_CHARS + 1) })).toBeNull();
    expect(parseContentInsert({ type: 'skillpin:approve', text: 'hi' })).toBeNull();
    expect(parseContentInsert(null)).toBeNull();
    expect(parseContentInsert('skillpin:content-insert')).toBeNull();
  });

  it('stays silent (null) for foreign senders and other messages, without touching the page', async () => {
    loadFixture('chatgpt');
    const exec = stubExecCommand(document, 'browser');
    const insert = vi.fn();
    const deps = { runtimeId: ID, doc: document, insert, settleMs: 10 };
    expect(onContentMessage({ type: 'skillpin:content-insert', text: 'x' }, { id: ID, tab: { id: 1 } }, deps)).toBeNull();
    expect(onContentMessage({ type: 'skillpin:content-insert', text: 'x' }, { id: 'evil' }, deps)).toBeNull();
    expect(onContentMessage({ type: 'skillpin:ready' }, BG, deps)).toBeNull();
    expect(insert).not.toHaveBeenCalled();
    expect(exec.calls).toEqual([]);
  });
});

describe('handling an insert', () => {
  it('inserts into the composer of the page\'s site, answers the result and shows a short confirmation', async () => {
    loadFixture('claude');
    const composer = document.querySelector('[data-fixture-composer]') as HTMLElement;
    emulateProseMirror(composer);
    stubExecCommand(document, 'browser');
    sends = watchSends(document);
    const copy = vi.fn(async () => true);
    const notify = vi.fn();
    const win = window as unknown as { happyDOM: { setURL(url: string): void } };
    win.happyDOM.setURL('https://claude.ai/new');
    try {
      const result = await onContentMessage({ type: 'skillpin:content-insert', text: 'skill text' }, BG, {
        runtimeId: ID,
        doc: document,
        copy,
        notify,
        settleMs: 10,
      });
      expect(result).toEqual({ ok: true, method: 'execCommand', message: expect.any(String) });
      expect(composer.textContent).toBe('skill text');
      expect(copy).not.toHaveBeenCalled();
      expect(notify).toHaveBeenCalledWith(document, result?.message, { tone: 'info', timeoutMs: 6000 });
      expect(sends.count()).toBe(0);
    } finally {
      win.happyDOM.setURL('http://localhost:3000/');
    }
  });

  it('on failure copies to the clipboard, says so in the page, and answers method clipboard', async () => {
    const copy = vi.fn(async () => true);
    const notify = vi.fn();
    const insert = async (): Promise<InsertResult> => ({ ok: false, method: 'none', message: INSERT_MESSAGES.rejected });
    const result = await handleContentInsert('the block', { runtimeId: ID, doc: document, insert, copy, notify });
    expect(copy).toHaveBeenCalledWith('the block', document);
    expect(result).toEqual({ ok: false, method: 'clipboard', message: `${INSERT_MESSAGES.rejected} ${CLIPBOARD_HINT}` });
    expect(notify).toHaveBeenCalledWith(document, result.message, { tone: 'warning', timeoutMs: 60000 });
  });

  it('when the clipboard fails too: method none and a message pointing at the popup', async () => {
    const notify = vi.fn();
    const insert = async (): Promise<InsertResult> => ({ ok: false, method: 'none', message: INSERT_MESSAGES.noComposer });
    const result = await handleContentInsert('t', { runtimeId: ID, doc: document, insert, copy: async () => false, notify });
    expect(result).toEqual({ ok: false, method: 'none', message: `${INSERT_MESSAGES.noComposer} ${NO_CLIPBOARD_HINT}` });
    const throwing = await handleContentInsert('t', {
      runtimeId: ID,
      doc: document,
      insert,
      copy: async () => {
        throw new Error('denied');
      },
      notify,
    });
    expect(throwing.method).toBe('none');
  });

  it('an insert routine or a notice that throws never escapes', async () => {
    const result = await handleContentInsert('t', {
      runtimeId: ID,
      doc: document,
      insert: async () => {
        throw new Error('boom');
      },
      copy: async () => true,
      notify: () => {
        throw new Error('no dom');
      },
    });
    expect(result.method).toBe('clipboard');
  });

  it('default path end to end: no composer → real notice in a shadow root, nothing pressed', async () => {
    loadFixture('generic');
    sends = watchSends(document);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const result = await handleContentInsert('block', { runtimeId: ID, doc: document, settleMs: 5 });
    expect(writeText).toHaveBeenCalledWith('block');
    expect(result.method).toBe('clipboard');
    const host = document.querySelector(NOTICE_TAG);
    expect(host).not.toBeNull();
    expect(sends.count()).toBe(0);
  });
});

describe('notice', () => {
  it('shows text only, in a closed shadow root, replaces an earlier one and can be dismissed', () => {
    const first = showNotice(document, 'first', { tone: 'info' });
    const second = showNotice(document, '<img src=x onerror=alert(1)> second', { tone: 'warning' });
    expect(first?.host.isConnected).toBe(false);
    expect(document.querySelectorAll(NOTICE_TAG)).toHaveLength(1);
    expect(second?.host.shadowRoot).toBeNull();
    const root = second?.root as ShadowRoot;
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('[role="alert"]')?.textContent).toContain('<img src=x onerror=alert(1)> second');
    expect(root.querySelector('link, script, [src]')).toBeNull();
    (root.querySelector('button') as HTMLButtonElement).dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(second?.host.isConnected).toBe(false);
  });

  it('removes itself after the timeout', () => {
    vi.useFakeTimers();
    const handle = showNotice(document, 'bye', { tone: 'info', timeoutMs: 1000 });
    expect(handle?.host.isConnected).toBe(true);
    vi.advanceTimersByTime(1001);
    expect(handle?.host.isConnected).toBe(false);
  });
});

describe('listener slot', () => {
  it('one live listener per world; a dead one is replaced', () => {
    const scope = {};
    let alive = true;
    expect(claimListenerSlot(scope, () => alive)).toBe(true);
    expect(claimListenerSlot(scope, () => true)).toBe(false);
    alive = false;
    expect(claimListenerSlot(scope, () => true)).toBe(true);
    const broken = {
      __skillpinChatContent: () => {
        throw new Error('context invalidated');
      },
    };
    expect(claimListenerSlot(broken, () => true)).toBe(true);
  });
});
