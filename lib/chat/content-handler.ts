// The chat content script's one job: take { type: 'skillpin:content-insert', text, origin }
// from this extension's background and insert the text into the composer, provided the
// page still is that origin; answer an InsertResult. After a failure the background copies
// the text (in an extension context, never through this page) and sends
// { type: 'skillpin:content-notice' } for the page to show. It never sends messages itself.
import { insertIntoComposer, insertMessage, type InsertOptions, type InsertResult } from './insert';
import { showNotice, type NoticeOptions } from './notice';
import { isHttpOrigin } from '../origin';
import { t } from '../i18n';

/** What the background sends the chat content script (lib/messages/ re-exports these). */
export interface ContentInsertMessage {
  type: 'skillpin:content-insert';
  text: string;
  /** The origin the background checked as a chat site: a page of any other origin refuses. */
  origin: string;
  /** The popup asked and says the outcome itself: the page shows no success message of its own. */
  quiet?: boolean;
}

/** After a failed insertion, what the page shows the user (the background copied the text, or could not). */
export interface ContentNoticeMessage {
  type: 'skillpin:content-notice';
  text: string;
  tone: 'info' | 'warning';
}

/** Longest text accepted (a 256 KiB SKILL.md plus its header fits easily). */
export const MAX_INSERT_CHARS = 4 * 1024 * 1024;
const MAX_NOTICE_CHARS = 2000;

export interface ContentDeps {
  runtimeId: string;
  doc: Document;
  insert?: (doc: Document, text: string, opts?: InsertOptions) => Promise<InsertResult>;
  notify?: (doc: Document, text: string, options: NoticeOptions) => void;
  settleMs?: number;
}

/** The answer of a page that left the chat site it was asked about (the background recognises it: it copies nothing then). */
export const navigatedAwayMessage = (): string => t('insert_navigated_away');

/** True only for messages from this extension's own background or pages (never from a tab). */
export function isFromExtension(sender: unknown, runtimeId: string): boolean {
  if (typeof sender !== 'object' || sender === null) return false;
  const s = sender as { id?: unknown; tab?: unknown };
  return typeof runtimeId === 'string' && runtimeId !== '' && s.id === runtimeId && s.tab === undefined;
}

export function parseContentInsert(message: unknown): ContentInsertMessage | null {
  if (typeof message !== 'object' || message === null) return null;
  const m = message as { type?: unknown; text?: unknown; origin?: unknown; quiet?: unknown };
  if (m.type !== 'skillpin:content-insert' || typeof m.text !== 'string' || !isHttpOrigin(m.origin)) return null;
  if (m.text.length === 0 || m.text.length > MAX_INSERT_CHARS) return null;
  if (m.quiet !== undefined && typeof m.quiet !== 'boolean') return null;
  return { type: 'skillpin:content-insert', text: m.text, origin: m.origin, ...(m.quiet ? { quiet: true } : {}) };
}

export function parseContentNotice(message: unknown): ContentNoticeMessage | null {
  if (typeof message !== 'object' || message === null) return null;
  const m = message as { type?: unknown; text?: unknown; tone?: unknown };
  if (m.type !== 'skillpin:content-notice' || typeof m.text !== 'string' || m.text.length === 0 || m.text.length > MAX_NOTICE_CHARS) return null;
  if (m.tone !== 'info' && m.tone !== 'warning') return null;
  return { type: 'skillpin:content-notice', text: m.text, tone: m.tone };
}

function pageOrigin(doc: Document): string | null {
  try {
    return doc.location?.origin ?? null;
  } catch {
    return null;
  }
}

/** Inserts when the page is still `origin`, and tells the user on success. Never throws. */
export async function handleContentInsert(request: ContentInsertMessage, deps: ContentDeps): Promise<InsertResult> {
  if (pageOrigin(deps.doc) !== request.origin) return { ok: false, method: 'none', error: 'navigated-away', message: navigatedAwayMessage() };
  const insert = deps.insert ?? insertIntoComposer;
  let result: InsertResult;
  try {
    result = await insert(deps.doc, request.text, deps.settleMs === undefined ? {} : { settleMs: deps.settleMs });
  } catch {
    result = { ok: false, method: 'none', message: insertMessage('failed') };
  }
  // One message per insert: the popup that asked says the outcome itself (quiet).
  if (result.ok && !request.quiet) safeNotify(deps, result.message, { tone: 'info', timeoutMs: 6000 });
  return result;
}

function safeNotify(deps: ContentDeps, text: string, options: NoticeOptions): void {
  const notify = deps.notify ?? ((doc: Document, message: string, o: NoticeOptions) => void showNotice(doc, message, o));
  try {
    notify(deps.doc, text, options);
  } catch {
    // The answer to the background matters more than the in-page message.
  }
}

/**
 * The runtime.onMessage listener body: null when the message is not a valid request from
 * this extension (the listener then stays silent), else the answer.
 */
export function onContentMessage(message: unknown, sender: unknown, deps: ContentDeps): Promise<InsertResult | { ok: true }> | null {
  if (!isFromExtension(sender, deps.runtimeId)) return null;
  const request = parseContentInsert(message);
  if (request !== null) return handleContentInsert(request, deps);
  const notice = parseContentNotice(message);
  if (notice === null) return null;
  safeNotify(deps, notice.text, { tone: notice.tone, timeoutMs: notice.tone === 'warning' ? 60000 : 6000 });
  return Promise.resolve({ ok: true });
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
