// Chrome's service worker has no DOM and cannot write the clipboard: it asks an offscreen
// document (entrypoints/offscreen) to copy. The background calls copyViaOffscreen(); the
// offscreen document answers through handleOffscreenMessage(). Firefox has no offscreen
// API: its background copies through a tab instead (./tab.ts).
import { copyWithTextarea } from './write';

/** What the background sends the offscreen document (lib/messages/ re-exports it). */
export interface OffscreenCopyMessage {
  type: 'skillpin:offscreen-copy';
  text: string;
}

/** Path of the offscreen document inside the extension (built from entrypoints/offscreen/). */
export const OFFSCREEN_PATH = 'offscreen.html';
export const OFFSCREEN_JUSTIFICATION = 'Copy an approved skill context to the clipboard when the user asks for it.';
/** Longest text the offscreen document accepts (a 256 KiB SKILL.md plus its header fits easily). */
export const MAX_COPY_CHARS = 4 * 1024 * 1024;

export interface OffscreenApiLike {
  offscreen: {
    createDocument(parameters: { url: string; reasons: 'CLIPBOARD'[]; justification: string }): Promise<void>;
    hasDocument?(): Promise<boolean>;
  };
  runtime: {
    getURL(path: string): string;
    sendMessage(message: unknown): Promise<unknown>;
    getContexts?(filter: { contextTypes: 'OFFSCREEN_DOCUMENT'[]; documentUrls?: string[] }): Promise<unknown[]>;
  };
}

export interface SenderLike {
  id?: string;
  tab?: unknown;
  url?: string;
}

let creating: Promise<void> | null = null;

async function hasOffscreenDocument(api: OffscreenApiLike): Promise<boolean> {
  const url = api.runtime.getURL(OFFSCREEN_PATH);
  if (typeof api.runtime.getContexts === 'function') {
    const contexts = await api.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [url] });
    return Array.isArray(contexts) && contexts.length > 0;
  }
  if (typeof api.offscreen.hasDocument === 'function') return api.offscreen.hasDocument();
  return false;
}

/** Creates the offscreen document unless it exists; concurrent callers share one creation. */
export async function ensureOffscreenDocument(api: OffscreenApiLike): Promise<void> {
  if (await hasOffscreenDocument(api)) return;
  if (creating === null) {
    creating = api.offscreen
      .createDocument({ url: OFFSCREEN_PATH, reasons: ['CLIPBOARD'], justification: OFFSCREEN_JUSTIFICATION })
      .catch((error: unknown) => {
        // Another caller (or an earlier worker) created it first: that is what we wanted.
        if (!/single offscreen|already/i.test(String(error))) throw error;
      })
      .finally(() => {
        creating = null;
      });
  }
  await creating;
}

/** Copies `text` through the offscreen document. Never throws. */
export async function copyViaOffscreen(api: OffscreenApiLike, text: string): Promise<boolean> {
  if (typeof text !== 'string' || text.length > MAX_COPY_CHARS) return false;
  try {
    await ensureOffscreenDocument(api);
    const message: OffscreenCopyMessage = { type: 'skillpin:offscreen-copy', text };
    const answer = await api.runtime.sendMessage(message);
    return typeof answer === 'object' && answer !== null && (answer as { ok?: unknown }).ok === true;
  } catch {
    return false;
  }
}

/** The copy request when `message` is one, from this extension's background (not a tab). */
export function parseOffscreenCopy(message: unknown, sender: SenderLike, runtimeId: string): OffscreenCopyMessage | null {
  if (sender.id !== runtimeId || sender.tab !== undefined) return null;
  if (typeof message !== 'object' || message === null) return null;
  const m = message as { type?: unknown; text?: unknown };
  if (m.type !== 'skillpin:offscreen-copy' || typeof m.text !== 'string' || m.text.length > MAX_COPY_CHARS) return null;
  return { type: 'skillpin:offscreen-copy', text: m.text };
}

/**
 * The offscreen document's answer: null when the message is not for it (it stays silent),
 * else a promise of { ok }. execCommand('copy') first: an offscreen document never has
 * focus, which navigator.clipboard requires.
 */
export function handleOffscreenMessage(message: unknown, sender: SenderLike, runtimeId: string, doc: Document): Promise<{ ok: boolean }> | null {
  const request = parseOffscreenCopy(message, sender, runtimeId);
  if (request === null) return null;
  return (async () => {
    if (copyWithTextarea(doc, request.text)) return { ok: true };
    try {
      const clipboard = doc.defaultView?.navigator.clipboard;
      if (clipboard === undefined) return { ok: false };
      await clipboard.writeText(request.text);
      return { ok: true };
    } catch {
      return { ok: false };
    }
  })();
}
