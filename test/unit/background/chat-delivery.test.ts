import { describe, expect, it } from 'vitest';
import { chatTarget, clipboardHint, deliverToChat, noClipboardHint, type FrameTarget } from '../../../lib/background/chat-delivery';
import { navigatedAwayMessage } from '../../../lib/chat/content-handler';
import { FakeHandOff } from './fake-platform';

const TEXT = '=== Skill context (Skillpin) ===\nline';

/** The target check the hand-off gate makes, then the delivery (hand-off-gate.ts composes the two the same way). */
async function insertIntoChat(p: FakeHandOff, chatSites: string[], target: FrameTarget, text: string, expected: string | null) {
  const chat = await chatTarget(p, chatSites, target, expected);
  if (!chat.ok) return { ok: false, method: 'none' as const, message: chat.message };
  return deliverToChat(p, target, text, chat.origin);
}

describe('chatTarget then deliverToChat: the target is checked at the moment of insertion', () => {
  it('inserts into a built-in chat site over https, naming the origin it checked', async () => {
    const p = new FakeHandOff();
    p.show(3, 'https://chatgpt.com/c/abc');
    expect(await insertIntoChat(p, [], { tabId: 3, frameId: 0 }, TEXT, 'https://chatgpt.com')).toMatchObject({ ok: true });
    expect(p.inserts).toEqual([{ tabId: 3, frameId: 0, text: TEXT, origin: 'https://chatgpt.com' }]);
    expect(p.copies).toEqual([]);
  });

  it.each([
    ['a page that is no chat site', 'https://evil.example/', 'https://chatgpt.com', /now shows https:\/\/evil\.example instead of https:\/\/chatgpt\.com/],
    ['another chat site than the one offered', 'https://claude.ai/new', 'https://chatgpt.com', /now shows https:\/\/claude\.ai instead of/],
    ['a built-in host over http', 'http://chatgpt.com/', null, /now shows http:\/\/chatgpt\.com,/],
    ['a user chat site on another port', 'http://localhost:3001/', null, /now shows http:\/\/localhost:3001,/],
    ['a tab that shows no web page', 'about:blank', null, /a page that is not a chat site/],
  ])('refuses %s, sends nothing and copies nothing', async (_what, url, expected, message) => {
    const p = new FakeHandOff();
    p.show(3, url);
    const result = await insertIntoChat(p, ['http://localhost:3000'], { tabId: 3, frameId: 0 }, TEXT, expected);
    expect(result.ok).toBe(false);
    expect(result.method).toBe('none');
    expect(result.message).toMatch(message);
    expect(p.inserts).toEqual([]);
    expect(p.copies).toEqual([]);
    expect(p.notices).toEqual([]);
  });

  it('refuses a tab that is gone', async () => {
    const p = new FakeHandOff();
    const result = await insertIntoChat(p, [], { tabId: 99, frameId: 0 }, TEXT, null);
    expect(result).toMatchObject({ ok: false, method: 'none', message: expect.stringMatching(/chat tab is gone/) });
  });

  it('a user chat site matches with its port, and the frame is the one asked for', async () => {
    const p = new FakeHandOff();
    p.show(5, 'http://localhost:3000/app', 2);
    expect((await insertIntoChat(p, ['http://localhost:3000'], { tabId: 5, frameId: 2 }, TEXT, null)).ok).toBe(true);
    expect(p.inserts).toEqual([{ tabId: 5, frameId: 2, text: TEXT, origin: 'http://localhost:3000' }]);
  });
});

describe('deliverToChat: after a failed insertion', () => {
  it('copies from the extension and tells the page and the caller', async () => {
    const p = new FakeHandOff();
    p.show(3, 'https://gemini.google.com/app');
    p.answer = { ok: false, method: 'none', message: 'The message box did not take the skill line for line, so it was left as it was.' };
    const result = await insertIntoChat(p, [], { tabId: 3, frameId: 0 }, TEXT, null);
    expect(result).toEqual({ ok: false, method: 'clipboard', message: `${p.answer.message} ${clipboardHint()}` });
    expect(p.copies).toEqual([TEXT]);
    expect(p.notices).toEqual([{ tabId: 3, frameId: 0, text: result.message }]);
  });

  it('says so when the clipboard fails too', async () => {
    const p = new FakeHandOff();
    p.show(3, 'https://gemini.google.com/app');
    p.answer = { ok: false, method: 'none', message: 'No message box found on this page.' };
    p.copyWorks = false;
    const result = await insertIntoChat(p, [], { tabId: 3, frameId: 0 }, TEXT, null);
    expect(result).toEqual({ ok: false, method: 'none', message: `No message box found on this page. ${noClipboardHint()}` });
  });

  it('a page that left the chat site before the message arrived gets nothing more', async () => {
    const p = new FakeHandOff();
    p.show(3, 'https://gemini.google.com/app');
    p.answer = { ok: false, method: 'none', error: 'navigated-away', message: navigatedAwayMessage() };
    const result = await insertIntoChat(p, [], { tabId: 3, frameId: 0 }, TEXT, null);
    expect(result.message).toBe(navigatedAwayMessage());
    expect(p.copies).toEqual([]);
    expect(p.notices).toEqual([]);
  });

  it('the reason is the code, not the words: a page in another language that left says so in its words; the same words without the code are a failure', async () => {
    const left = new FakeHandOff();
    left.show(3, 'https://gemini.google.com/app');
    left.answer = { ok: false, method: 'none', error: 'navigated-away', message: 'Die Seite zeigt keinen Chat mehr.' };
    await insertIntoChat(left, [], { tabId: 3, frameId: 0 }, TEXT, null);
    expect(left.copies).toEqual([]);
    const failed = new FakeHandOff();
    failed.show(3, 'https://gemini.google.com/app');
    failed.answer = { ok: false, method: 'none', message: navigatedAwayMessage() };
    await insertIntoChat(failed, [], { tabId: 3, frameId: 0 }, TEXT, null);
    expect(failed.copies).toEqual([TEXT]);
  });

  it('an unreachable page or a malformed answer is a failure with the clipboard fallback', async () => {
    const p = new FakeHandOff();
    p.show(3, 'https://claude.ai/new');
    p.sendToFrame = async () => {
      throw new Error('Could not establish connection');
    };
    const result = await insertIntoChat(p, [], { tabId: 3, frameId: 0 }, TEXT, null);
    expect(result.method).toBe('clipboard');
    expect(result.message).toMatch(/Could not reach the chat page \(Could not establish connection/);
    const q = new FakeHandOff();
    q.show(3, 'https://claude.ai/new');
    q.answer = { weird: true } as never;
    expect((await insertIntoChat(q, [], { tabId: 3, frameId: 0 }, TEXT, null)).message).toMatch(/did not answer/);
  });
});
