// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { copyViaOffscreen, ensureOffscreenDocument, handleOffscreenMessage, MAX_COPY_CHARS, OFFSCREEN_PATH, parseOffscreenCopy, type OffscreenApiLike } from '../../../lib/clipboard/offscreen';
import { resetClipboardPage, setClipboard, stubCopy } from './page-stubs';

const ID = 'ext-id';

resetClipboardPage();

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
