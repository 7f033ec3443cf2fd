// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  copyViaOffscreen,
  ensureOffscreenDocument,
  handleOffscreenMessage,
  MAX_COPY_CHARS,
  OFFSCREEN_PATH,
  parseOffscreenCopy,
  type OffscreenApiLike,
} from '../../../lib/clipboard/offscreen';
import { copyWithTextarea, writeClipboard } from '../../../lib/clipboard/write';

const ID = 'ext-id';

/** A stand-in for execCommand('copy'): records what the selected textarea held. */
function stubCopy(result: boolean | 'throw' = true): { copied: string[] } {
  const state = { copied: [] as string[] };
  const exec = (command: string): boolean => {
    if (command !== 'copy') return false;
    if (result === 'throw') throw new Error('denied');
    const active = document.activeElement;
    if (active instanceof HTMLTextAreaElement) state.copied.push(active.value.slice(active.selectionStart ?? 0, active.selectionEnd ?? 0));
    return result;
  };
  Object.defineProperty(document, 'execCommand', { value: exec, configurable: true, writable: true });
  return state;
}

function setClipboard(writeText: ((t: string) => Promise<void>) | undefined): void {
  Object.defineProperty(navigator, 'clipboard', { value: writeText === undefined ? undefined : { writeText }, configurable: true });
}

beforeEach(() => {
  document.body.innerHTML = '<textarea id="composer"></textarea>';
});

afterEach(() => {
  delete (document as unknown as Record<string, unknown>).execCommand;
  setClipboard(async () => undefined);
});

describe('writeClipboard', () => {
  it('uses navigator.clipboard when it works', async () => {
    const writeText = vi.fn(async () => undefined);
    setClipboard(writeText);
    const copy = stubCopy();
    expect(await writeClipboard('abc', document)).toBe(true);
    expect(writeText).toHaveBeenCalledWith('abc');
    expect(copy.copied).toEqual([]);
  });

  it('falls back to a hidden textarea + execCommand(copy) and restores focus', async () => {
    setClipboard(async () => {
      throw new DOMException('Document is not focused.', 'NotAllowedError');
    });
    const copy = stubCopy();
    const composer = document.getElementById('composer') as HTMLTextAreaElement;
    composer.focus();
    expect(await writeClipboard('line 1\r\nline 2', document)).toBe(true);
    expect(copy.copied).toEqual(['line 1\r\nline 2']);
    expect(document.activeElement).toBe(composer);
    expect(document.querySelectorAll('textarea')).toHaveLength(1);
  });

  it('false when both fail; never throws', async () => {
    setClipboard(undefined);
    stubCopy(false);
    expect(await writeClipboard('x', document)).toBe(false);
    stubCopy('throw');
    expect(await writeClipboard('x', document)).toBe(false);
    expect(document.querySelectorAll('textarea')).toHaveLength(1);
    delete (document as unknown as Record<string, unknown>).execCommand;
    expect(copyWithTextarea(document, 'x')).toBe(false);
  });
});

describe('copyViaOffscreen', () => {
  function api(options: { exists?: boolean; answer?: unknown; createError?: Error; noGetContexts?: boolean } = {}): OffscreenApiLike & {
    created: number;
    sent: unknown[];
  } {
    let exists = options.exists ?? false;
    const self = {
      created: 0,
      sent: [] as unknown[],
      offscreen: {
        createDocument: vi.fn(async (p: { url: string; reasons: 'CLIPBOARD'[]; justification: string }) => {
          expect(p.url).toBe(OFFSCREEN_PATH);
          expect(p.reasons).toEqual(['CLIPBOARD']);
          expect(p.justification.length).toBeGreaterThan(10);
          await new Promise((r) => setTimeout(r, 5));
          if (options.createError) throw options.createError;
          self.created++;
          exists = true;
        }),
        hasDocument: async () => exists,
      },
      runtime: {
        getURL: (path: string) => `chrome-extension://${ID}/${path}`,
        sendMessage: vi.fn(async (m: unknown) => {
          self.sent.push(m);
          return 'answer' in options ? options.answer : { ok: true };
        }),
        ...(options.noGetContexts
          ? {}
          : {
              getContexts: async (f: { contextTypes: 'OFFSCREEN_DOCUMENT'[]; documentUrls?: string[] }) => {
                expect(f.documentUrls).toEqual([`chrome-extension://${ID}/${OFFSCREEN_PATH}`]);
                return exists ? [{ contextType: 'OFFSCREEN_DOCUMENT' }] : [];
              },
            }),
      },
    };
    return self;
  }

  it('creates the document once, even for concurrent copies, and sends the text', async () => {
    const a = api();
    const results = await Promise.all([copyViaOffscreen(a, 'one'), copyViaOffscreen(a, 'two')]);
    expect(results).toEqual([true, true]);
    expect(a.created).toBe(1);
    expect(a.sent).toEqual([
      { type: 'skillpin:offscreen-copy', text: 'one' },
      { type: 'skillpin:offscreen-copy', text: 'two' },
    ]);
    expect(await copyViaOffscreen(a, 'three')).toBe(true);
    expect(a.created).toBe(1);
  });

  it('does not create a document that exists (hasDocument fallback too)', async () => {
    const a = api({ exists: true, noGetContexts: true });
    await ensureOffscreenDocument(a);
    expect(a.offscreen.createDocument).not.toHaveBeenCalled();
  });

  it('tolerates losing the creation race', async () => {
    const a = api({ createError: new Error('Only a single offscreen document may be created.') });
    expect(await copyViaOffscreen(a, 'x')).toBe(true);
  });

  it('false on any other failure or an unexpected answer', async () => {
    expect(await copyViaOffscreen(api({ createError: new Error('no permission') }), 'x')).toBe(false);
    expect(await copyViaOffscreen(api({ answer: { ok: false } }), 'x')).toBe(false);
    expect(await copyViaOffscreen(api({ answer: undefined }), 'x')).toBe(false);
    expect(await copyViaOffscreen(api({ answer: 'ok' }), 'x')).toBe(false);
    const a = api();
    a.runtime.sendMessage = async () => {
      throw new Error('Receiving end does not exist.');
    };
    expect(await copyViaOffscreen(a, 'x')).toBe(false);
    expect(await copyViaOffscreen(api(), 'x'.repeat(MAX_COPY_CHARS + 1))).toBe(false);
  });
});

describe('offscreen document handler', () => {
  const message = { type: 'skillpin:offscreen-copy', text: 'copy me' };

  it('answers only this extension (not tabs) and only copy messages', () => {
    expect(parseOffscreenCopy(message, { id: ID }, ID)).toEqual(message);
    expect(parseOffscreenCopy(message, { id: ID, tab: { id: 1 } }, ID)).toBeNull();
    expect(parseOffscreenCopy(message, { id: 'other' }, ID)).toBeNull();
    expect(parseOffscreenCopy({ type: 'skillpin:approve' }, { id: ID }, ID)).toBeNull();
    expect(parseOffscreenCopy({ type: 'skillpin:offscreen-copy', text: 1 }, { id: ID }, ID)).toBeNull();
    expect(parseOffscreenCopy(null, { id: ID }, ID)).toBeNull();
    expect(handleOffscreenMessage({ type: 'skillpin:ready' }, { id: ID }, ID, document)).toBeNull();
  });

  it('copies with execCommand first (an offscreen document has no focus)', async () => {
    const writeText = vi.fn(async () => undefined);
    setClipboard(writeText);
    const copy = stubCopy();
    expect(await handleOffscreenMessage(message, { id: ID }, ID, document)).toEqual({ ok: true });
    expect(copy.copied).toEqual(['copy me']);
    expect(writeText).not.toHaveBeenCalled();
  });

  it('then navigator.clipboard; ok false when both fail', async () => {
    stubCopy(false);
    const writeText = vi.fn(async () => undefined);
    setClipboard(writeText);
    expect(await handleOffscreenMessage(message, { id: ID }, ID, document)).toEqual({ ok: true });
    setClipboard(async () => {
      throw new Error('not focused');
    });
    expect(await handleOffscreenMessage(message, { id: ID }, ID, document)).toEqual({ ok: false });
  });
});
