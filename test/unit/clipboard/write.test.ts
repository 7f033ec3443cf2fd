// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { copyWithTextarea, writeClipboard } from '../../../lib/clipboard/write';
import { resetClipboardPage, setClipboard, stubCopy } from './page-stubs';

resetClipboardPage();

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
