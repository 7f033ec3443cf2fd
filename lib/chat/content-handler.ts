// The chat content script's one job: take { type: 'skillpin:content-insert', text } from
// this extension's background, insert it into the composer, fall back to the clipboard
// with a visible message, and answer an InsertResult. It never sends messages itself.
import type { ContentInsertMessage, InsertResult } from '../messages';
import { writeClipboard } from '../clipboard/write';
import { insertIntoComposer, type InsertOptions } from './insert';
import { showNotice, type NoticeOptions } from './notice';

/** Longest text accepted (a 256 KiB SKILL.md plus its header fits easily). */
export const MAX_INSERT_CHARS = 4 * 1024 * 1024;

export interface MessageSenderLike {
  id?: string;
  tab?: unknown;
}

export interface ContentDeps {
  runtimeId: string;
  doc: Document;
  insert?: (doc: Document, text: string, opts?: InsertOptions) => Promise<InsertResult>;
  copy?: (text: string, doc: Document) => Promise<boolean>;
  notify?: (doc: Document, text: string, options: NoticeOptions) => void;
  settleMs?: number;
}

export const CLIPBOARD_HINT = 'The skill is on your clipboard: click into the message box and paste it (Ctrl+V or ⌘V). Nothing was sent.';
export const NO_CLIPBOARD_HINT = 'Copying it to the clipboard failed too: open the Skillpin popup and use Copy.';

/** True only for messages from this extension's own background or pages (never from a tab). */
export function isFromExtension(sender: unknown, runtimeId: string): boolean {
  if (typeof sender !== 'object' || sender === null) return false;
  const s = sender as MessageSenderLike;
  return typeof runtimeId === 'string' && runtimeId !== '' && s.id === runtimeId && s.tab === undefined;
}

export function parseContentInsert(message: unknown): ContentInsertMessage | null {
  if (typeof message !== 'object' || message === null) return null;
  const m = message as { type?: unknown; text?: unknown };
  if (m.type !== 'skillpin:content-insert' || typeof m.text !== 'string') return null;
  if (m.text.length === 0 || m.text.length > MAX_INSERT_CHARS) return null;
  return { type: 'skillpin:content-insert', text: m.text };
}

/** Inserts, or copies and tells the user. Never throws. */
export async function handleContentInsert(text: string, deps: ContentDeps): Promise<InsertResult> {
  const insert = deps.insert ?? insertIntoComposer;
  const copy = deps.copy ?? writeClipboard;
  const notify = deps.notify ?? ((doc: Document, message: string, options: NoticeOptions) => void showNotice(doc, message, options));
  let result: InsertResult;
  try {
    result = await insert(deps.doc, text, deps.settleMs === undefined ? {} : { settleMs: deps.settleMs });
  } catch {
    result = { ok: false, method: 'none', message: 'Inserting into the message box failed.' };
  }
  if (result.ok) {
    safeNotify(notify, deps.doc, result.message, { tone: 'info', timeoutMs: 6000 });
    return result;
  }
  let copied = false;
  try {
    copied = await copy(text, deps.doc);
  } catch {
    copied = false;
  }
  const answer: InsertResult = copied
    ? { ok: false, method: 'clipboard', message: `${result.message} ${CLIPBOARD_HINT}` }
    : { ok: false, method: 'none', message: `${result.message} ${NO_CLIPBOARD_HINT}` };
  safeNotify(notify, deps.doc, answer.message, { tone: 'warning', timeoutMs: 60000 });
  return answer;
}

function safeNotify(notify: NonNullable<ContentDeps['notify']>, doc: Document, text: string, options: NoticeOptions): void {
  try {
    notify(doc, text, options);
  } catch {
    // The answer to the background matters more than the in-page message.
  }
}

/**
 * The runtime.onMessage listener body: null when the message is not a valid insert
 * request from this extension (the listener then stays silent), else the answer.
 */
export function onContentMessage(message: unknown, sender: unknown, deps: ContentDeps): Promise<InsertResult> | null {
  if (!isFromExtension(sender, deps.runtimeId)) return null;
  const request = parseContentInsert(message);
  if (request === null) return null;
  return handleContentInsert(request.text, deps);
}

const GUARD_KEY = '__skillpinChatContent';

/**
 * Claims the one listener slot of this JavaScript world. False when a live listener is
 * already installed (the script was injected twice); a slot left by an invalidated
 * script (extension reloaded) is taken over.
 */
export function claimListenerSlot(scope: object, isAlive: () => boolean): boolean {
  const slots = scope as Record<string, unknown>;
  const existing = slots[GUARD_KEY];
  if (typeof existing === 'function') {
    try {
      if ((existing as () => unknown)() === true) return false;
    } catch {
      // A dead script's check may throw: take the slot.
    }
  }
  slots[GUARD_KEY] = isAlive;
  return true;
}
