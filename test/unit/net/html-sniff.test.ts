import { describe, expect, it } from 'vitest';
import { sniffsAsHtml } from '../../../lib/net/html-sniff';
import type { DocumentKind } from '../../../lib/types';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const BOM = [0xef, 0xbb, 0xbf];
const withBom = (s: string): Uint8Array => new Uint8Array([...BOM, ...enc(s)]);

const TEXT_KINDS: DocumentKind[] = ['llms-txt', 'skill-md', 'signing-key'];
const JSON_KINDS: DocumentKind[] = ['index', 'legacy-index', 'attestations'];

describe('sniffsAsHtml: text documents (llms.txt, SKILL.md, .pub)', () => {
  it.each(TEXT_KINDS)('%s: HTML markers, any case, after BOM and whitespace', (kind) => {
    for (const body of ['<!doctype html><p>x', '<!DOCTYPE HTML>', '<html lang="en">', '<HEAD>', '<body>', '<Html>']) {
      expect(sniffsAsHtml(enc(body), 'text/plain', kind), body).toBe(true);
      expect(sniffsAsHtml(enc(' \t\r\n\f' + body), null, kind), 'ws ' + body).toBe(true);
      expect(sniffsAsHtml(withBom('\n' + body), null, kind), 'bom ' + body).toBe(true);
    }
  });

  it.each(TEXT_KINDS)('%s: "<" is HTML only with a text/html Content-Type', (kind) => {
    expect(sniffsAsHtml(enc('<div>soft 404</div>'), 'text/html; charset=utf-8', kind)).toBe(true);
    expect(sniffsAsHtml(enc('<div>soft 404</div>'), 'TEXT/HTML', kind)).toBe(true);
    expect(sniffsAsHtml(enc('<div>x</div>'), 'text/plain', kind)).toBe(false);
    expect(sniffsAsHtml(enc('<div>x</div>'), null, kind)).toBe(false);
    expect(sniffsAsHtml(enc('<!-- skill: {} -->'), 'text/markdown', kind)).toBe(false);
    expect(sniffsAsHtml(enc('<div>x</div>'), 'text/htmlx', kind)).toBe(false);
  });

  it.each(TEXT_KINDS)('%s: real text is not HTML, even when served as text/html', (kind) => {
    expect(sniffsAsHtml(enc('# Title\n\n## Skills\n'), 'text/html', kind)).toBe(false);
    expect(sniffsAsHtml(enc('---\nname: x\n---\n<html>'), 'text/html', kind)).toBe(false);
    expect(sniffsAsHtml(enc(''), 'text/html', kind)).toBe(false);
    expect(sniffsAsHtml(new Uint8Array(BOM), 'text/html', kind)).toBe(false);
    expect(sniffsAsHtml(enc('<htm'), null, kind)).toBe(false);
  });

  it('does not skip non-ASCII whitespace or a second BOM', () => {
    expect(sniffsAsHtml(enc('\u00a0<html>'), null, 'llms-txt')).toBe(false);
    expect(sniffsAsHtml(new Uint8Array([...BOM, ...BOM, ...enc('<html>')]), null, 'llms-txt')).toBe(false);
    expect(sniffsAsHtml(enc('\v<html>'), null, 'llms-txt')).toBe(false);
  });
});

describe('sniffsAsHtml: JSON documents (index, legacy index, attestations)', () => {
  it.each(JSON_KINDS)('%s: any body starting with "<" is HTML', (kind) => {
    expect(sniffsAsHtml(enc('<'), 'application/json', kind)).toBe(true);
    expect(sniffsAsHtml(enc('\n  <div id="app"></div>'), 'application/json', kind)).toBe(true);
    expect(sniffsAsHtml(withBom('<!doctype html>'), null, kind)).toBe(true);
  });
  it.each(JSON_KINDS)('%s: JSON is not HTML, whatever the Content-Type', (kind) => {
    expect(sniffsAsHtml(enc('{"skills": []}'), 'text/html', kind)).toBe(false);
    expect(sniffsAsHtml(withBom('\t{"skills": []}'), null, kind)).toBe(false);
    expect(sniffsAsHtml(enc(''), 'text/html', kind)).toBe(false);
  });
});

describe('sniffsAsHtml: archives', () => {
  it('an HTML page is HTML; zip and gzip bytes are not', () => {
    expect(sniffsAsHtml(enc('<!DOCTYPE html><title>404</title>'), 'text/html', 'archive')).toBe(true);
    expect(sniffsAsHtml(enc('<p>gone</p>'), 'text/html', 'archive')).toBe(true);
    expect(sniffsAsHtml(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x3c]), 'text/html', 'archive')).toBe(false);
    expect(sniffsAsHtml(new Uint8Array([0x1f, 0x8b, 0x08, 0x00]), 'application/gzip', 'archive')).toBe(false);
  });
});
