import { describe, expect, it } from 'vitest';
import { contentOf, mimeOf } from '../../../host/mime';

describe('file content for resources/read', () => {
  it('text keeps a BOM and CR LF, so its UTF-8 bytes are the file’s bytes', () => {
    const bytes = Buffer.from('\ufeff---\r\nname: x\r\n---\r\nü\r\n', 'utf8');
    const c = contentOf('SKILL.md', bytes) as { text: string };
    expect(Buffer.from(c.text, 'utf8')).toEqual(bytes);
  });

  it('bytes that are not UTF-8, or not text, go as base64', () => {
    expect(contentOf('notes.md', Buffer.from([0x61, 0xff]))).toEqual({ blob: Buffer.from([0x61, 0xff]).toString('base64') });
    expect(contentOf('logo.png', Buffer.from('abc'))).toEqual({ blob: 'YWJj' });
    expect(mimeOf('a/B.MD')).toBe('text/markdown');
    expect(mimeOf('Makefile')).toBe('application/octet-stream');
  });
});
