// Handing a built skill context to a chat page (PRODUCT.md §6): the hand-off gate has checked
// the target frame a moment before (hand-off-gate.ts: its URL now is a chat site, the one the
// popup offered when it names one); the content script of that frame checks the origin once more
// and inserts, and a failure falls back to the clipboard — written in an extension context, never
// through the page, whose copy event could rewrite it — with a message shown in the page too.
import type { ContentInsertMessage, ContentNoticeMessage, InsertResult } from '../messages';
import { chatSiteOrigin } from '../chat/sites';
import { httpOrigin } from '../origin';
import { t } from '../i18n';

export interface FrameTarget {
  tabId: number;
  /** 0 for the top frame; a context menu click names the frame it was opened in. */
  frameId: number;
}

export interface HandOffPlatform {
  /** The frame's URL now (frame 0: the tab's URL), or null when the tab or frame is gone. */
  frameUrl(target: FrameTarget): Promise<string | null>;
  /** Delivers a message to the chat content script of that frame, injecting it when absent. */
  sendToFrame(target: FrameTarget, message: ContentInsertMessage | ContentNoticeMessage): Promise<unknown>;
  /** Writes the clipboard from an extension context (offscreen document, or Firefox's background page). */
  copyText(text: string): Promise<boolean>;
}

/** What follows a failed insert, in the browser's language: the skill is on the clipboard, or not even there. */
export const clipboardHint = (): string => t('hint_clipboard');
export const noClipboardHint = (): string => t('hint_no_clipboard');

export function isInsertResult(v: unknown): v is InsertResult {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as { ok?: unknown; method?: unknown; message?: unknown };
  return typeof r.ok === 'boolean' && typeof r.method === 'string' && typeof r.message === 'string';
}

/** Why a frame gets nothing: it is gone, or it shows something else than a chat site (or than the one offered). */
export function notAChatMessage(url: string | null, expected: string | null): string {
  if (url === null) return t('chat_tab_gone');
  const now = httpOrigin(url) ?? t('chat_not_a_chat');
  return expected === null ? t('chat_tab_moved', now) : t('chat_tab_moved_from', now, expected);
}

type ChatTargetResult = { ok: true; origin: string } | { ok: false; message: string };

/**
 * Whether the frame shows a chat site right now (`expectedOrigin` when given): its origin, or the
 * sentence saying why it gets nothing. The hand-off gate asks it just before a delivery.
 */
export async function chatTarget(platform: Pick<HandOffPlatform, 'frameUrl'>, chatSites: readonly string[], target: FrameTarget, expectedOrigin: string | null): Promise<ChatTargetResult> {
  const url = await platform.frameUrl(target).catch(() => null);
  const origin = chatSiteOrigin(url, chatSites);
  if (origin === null || (expectedOrigin !== null && origin !== expectedOrigin)) return { ok: false, message: notAChatMessage(url, expectedOrigin) };
  return { ok: true, origin };
}

/**
 * Delivers `text` to the chat content script of the frame, which inserts it when the frame still
 * shows `origin` (the chat site the gate checked). `quiet`: the popup asked and tells the outcome
 * itself, so the page shows no success message (a failure is still shown where the user pastes). Never throws.
 */
export async function deliverToChat(platform: HandOffPlatform, target: FrameTarget, text: string, origin: string, quiet = false): Promise<InsertResult> {
  let result: InsertResult;
  try {
    const answer = await platform.sendToFrame(target, { type: 'skillpin:content-insert', text, origin, ...(quiet ? { quiet: true } : {}) });
    result = isInsertResult(answer) ? answer : { ok: false, method: 'none', message: t('chat_no_answer') };
  } catch (err) {
    result = { ok: false, method: 'none', message: t('chat_unreachable', err instanceof Error ? err.message : String(err)) };
  }
  // Inserted; or the page had left the chat site by the time the message arrived: it gets nothing.
  if (result.ok || result.error === 'navigated-away') return result;
  const copied = await platform.copyText(text).catch(() => false);
  const answer: InsertResult = copied
    ? { ok: false, method: 'clipboard', message: `${result.message} ${clipboardHint()}` }
    : { ok: false, method: 'none', message: `${result.message} ${noClipboardHint()}` };
  await platform.sendToFrame(target, { type: 'skillpin:content-notice', text: answer.message, tone: 'warning' }).catch(() => undefined);
  return answer;
}
