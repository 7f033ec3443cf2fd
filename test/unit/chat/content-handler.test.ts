// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  claimListenerSlot,
  handleContentInsert,
  isFromExtension,
  MAX_INSERT_CHARS,
  navigatedAwayMessage,
  onContentMessage,
  parseContentInsert,
  parseContentNotice,
} from '../../../lib/chat/content-handler';
import { insertMessage } from '../../../lib/chat/insert';
import { NOTICE_TAG, showNotice } from '../../../lib/chat/notice';
import type { InsertResult } from '../../../lib/messages';

const ID = 'skillpin-extension-id';
const BG = { id: ID, url: 'chrome-extension://skillpin-extension-id/background.js' };
const HERE = 'http://localhost:3000';

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  for (const n of Array.from(document.querySelectorAll(NOTICE_TAG))) n.remove();
});

afterEach(() => {
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

  it('parses only well-formed insert messages, which name the origin the background checked', () => {
    expect(parseContentInsert({ type: 'skillpin:content-insert', text: 'hi', origin: HERE, extra: 1 })).toEqual({ type: 'skillpin:content-insert', text: 'hi', origin: HERE });
    expect(parseContentInsert({ type: 'skillpin:content-insert', text: 'hi' })).toBeNull();
    expect(parseContentInsert({ type: 'skillpin:content-insert', text: 'hi', origin: `${HERE}/` })).toBeNull();
    expect(parseContentInsert({ type: 'skillpin:content-insert', text: 'hi', origin: 'javascript:alert(1)' })).toBeNull();
    expect(parseContentInsert({ type: 'skillpin:content-insert', text: '', origin: HERE })).toBeNull();
    expect(parseContentInsert({ type: 'skillpin:content-insert', text: 5, origin: HERE })).toBeNull();
    expect(parseContentInsert({ type: 'skillpin:content-insert', text: 'x'.repeat(MAX_INSERT_CHARS + 1), origin: HERE })).toBeNull();
    expect(parseContentInsert({ type: 'skillpin:approve', text: 'hi', origin: HERE })).toBeNull();
    expect(parseContentInsert(null)).toBeNull();
  });

  it('parses only well-formed notices', () => {
    expect(parseContentNotice({ type: 'skillpin:content-notice', text: 'copied', tone: 'warning' })).toEqual({ type: 'skillpin:content-notice', text: 'copied', tone: 'warning' });
    expect(parseContentNotice({ type: 'skillpin:content-notice', text: 'copied', tone: 'loud' })).toBeNull();
    expect(parseContentNotice({ type: 'skillpin:content-notice', text: '', tone: 'info' })).toBeNull();
    expect(parseContentNotice({ type: 'skillpin:content-notice', text: 'x'.repeat(5000), tone: 'info' })).toBeNull();
  });

  it('stays silent (null) for foreign senders and other messages, without touching the page', () => {
    const insert = vi.fn();
    const notify = vi.fn();
    const deps = { runtimeId: ID, doc: document, insert, notify };
    const message = { type: 'skillpin:content-insert', text: 'x', origin: HERE };
    expect(onContentMessage(message, { id: ID, tab: { id: 1 } }, deps)).toBeNull();
    expect(onContentMessage(message, { id: 'evil' }, deps)).toBeNull();
    expect(onContentMessage({ type: 'skillpin:content-notice', text: 'x', tone: 'info' }, { id: ID, tab: { id: 1 } }, deps)).toBeNull();
    expect(onContentMessage({ type: 'skillpin:ready' }, BG, deps)).toBeNull();
    expect(insert).not.toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('handling an insert', () => {
  it('inserts when the page is still the origin the background checked, and confirms in the page', async () => {
    const notify = vi.fn();
    const insert = vi.fn(async (): Promise<InsertResult> => ({ ok: true, method: 'insert-text', message: insertMessage('success') }));
    const result = await onContentMessage({ type: 'skillpin:content-insert', text: 'skill text', origin: HERE }, BG, { runtimeId: ID, doc: document, insert, notify });
    expect(result).toEqual({ ok: true, method: 'insert-text', message: insertMessage('success') });
    expect(insert).toHaveBeenCalledWith(document, 'skill text', {});
    expect(notify).toHaveBeenCalledWith(document, insertMessage('success'), { tone: 'info', timeoutMs: 6000 });
  });

  it('an insert the popup asked for (quiet) shows no message in the page: the popup says it, once', async () => {
    const notify = vi.fn();
    const insert = vi.fn(async (): Promise<InsertResult> => ({ ok: true, method: 'insert-text', message: insertMessage('success') }));
    const result = await onContentMessage({ type: 'skillpin:content-insert', text: 'skill text', origin: HERE, quiet: true }, BG, { runtimeId: ID, doc: document, insert, notify });
    expect(result).toMatchObject({ ok: true });
    expect(notify).not.toHaveBeenCalled();
    expect(await onContentMessage({ type: 'skillpin:content-insert', text: 'skill text', origin: HERE, quiet: 'yes' }, BG, { runtimeId: ID, doc: document, insert, notify })).toBeNull();
  });

  it('a page of another origin gets nothing (the tab navigated after the background checked it)', async () => {
    const insert = vi.fn();
    const notify = vi.fn();
    const result = await handleContentInsert({ type: 'skillpin:content-insert', text: 't', origin: 'https://chatgpt.com' }, { runtimeId: ID, doc: document, insert, notify });
    expect(result).toEqual({ ok: false, method: 'none', error: 'navigated-away', message: navigatedAwayMessage() });
    expect(insert).not.toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
  });

  it('a failure is answered as it is: the page never copies (the background does, outside the page)', async () => {
    const notify = vi.fn();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const insert = async (): Promise<InsertResult> => ({ ok: false, method: 'none', message: insertMessage('rejected') });
    const result = await handleContentInsert({ type: 'skillpin:content-insert', text: 'the block', origin: HERE }, { runtimeId: ID, doc: document, insert, notify });
    expect(result).toEqual({ ok: false, method: 'none', message: insertMessage('rejected') });
    expect(writeText).not.toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
  });

  it('an insert routine or a notice that throws never escapes', async () => {
    const result = await handleContentInsert(
      { type: 'skillpin:content-insert', text: 't', origin: HERE },
      {
        runtimeId: ID,
        doc: document,
        insert: async () => {
          throw new Error('boom');
        },
        notify: () => {
          throw new Error('no dom');
        },
      },
    );
    expect(result).toEqual({ ok: false, method: 'none', message: insertMessage('failed') });
  });

  it('shows the notice the background sends after a failure, as a warning that stays a minute', async () => {
    const notify = vi.fn();
    const answer = await onContentMessage({ type: 'skillpin:content-notice', text: 'On your clipboard.', tone: 'warning' }, BG, { runtimeId: ID, doc: document, notify });
    expect(answer).toEqual({ ok: true });
    expect(notify).toHaveBeenCalledWith(document, 'On your clipboard.', { tone: 'warning', timeoutMs: 60000 });
  });

  it('default path end to end: no composer on the page → the answer says so, nothing is pressed', async () => {
    document.body.innerHTML = '<p>no field here</p><button id="send">Send</button>';
    let clicks = 0;
    document.getElementById('send')?.addEventListener('click', () => clicks++);
    const result = await handleContentInsert({ type: 'skillpin:content-insert', text: 'block', origin: HERE }, { runtimeId: ID, doc: document, settleMs: 5 });
    expect(result).toEqual({ ok: false, method: 'none', message: insertMessage('noComposer') });
    expect(clicks).toBe(0);
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
