import { describe, expect, it } from 'vitest';
import { detectArchiveFormat } from '../../../lib/verify/archive';

const GZIP = Uint8Array.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0]);
const ZIP = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);
const EMPTY_ZIP = Uint8Array.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]);
const OTHER = new TextEncoder().encode('<!doctype html>');

describe('detectArchiveFormat: the Content-Type decides', () => {
  it.each([
    ['application/gzip', GZIP, 'tar.gz'],
    ['application/x-gzip', GZIP, 'tar.gz'],
    ['application/x-gzip; charset=binary', GZIP, 'tar.gz'],
    ['Application/GZIP', GZIP, 'tar.gz'],
    ['application/zip', ZIP, 'zip'],
    ['application/zip', EMPTY_ZIP, 'zip'],
  ] as const)('%s with matching magic → %s', (type, bytes, format) => {
    expect(detectArchiveFormat(type, 'https://a.test/x', bytes)).toEqual({ ok: true, format });
  });

  it('the Content-Type wins over the URL extension', () => {
    expect(detectArchiveFormat('application/zip', 'https://a.test/skill.tar.gz', ZIP)).toEqual({ ok: true, format: 'zip' });
    expect(detectArchiveFormat('application/gzip', 'https://a.test/skill.zip', GZIP)).toEqual({ ok: true, format: 'tar.gz' });
  });
});

describe('detectArchiveFormat: missing or generic Content-Type falls back to the URL extension', () => {
  it.each([
    [null, 'https://a.test/s/skill.tar.gz', GZIP, 'tar.gz'],
    ['application/octet-stream', 'https://a.test/s/skill.zip', ZIP, 'zip'],
    ['', 'https://a.test/s/SKILL.TAR.GZ', GZIP, 'tar.gz'],
    [null, 'https://a.test/s/skill.zip?v=2#top', ZIP, 'zip'],
    [null, '/.well-known/agent-skills/skill.tar.gz', GZIP, 'tar.gz'],
  ] as const)('%s + %s → %s', (type, url, bytes, format) => {
    expect(detectArchiveFormat(type, url, bytes)).toEqual({ ok: true, format });
  });

  it.each([
    [null, 'https://a.test/skill'],
    [null, 'https://a.test/skill.rar'],
    ['application/octet-stream', 'https://a.test/skill.tgz'],
    ['application/octet-stream', 'https://a.test/skill.tar'],
    [null, 'https://a.test/download?file=skill.zip'],
  ] as const)('%s + %s → unsupported', (type, url) => {
    const r = detectArchiveFormat(type, url, GZIP);
    expect(r).toMatchObject({ ok: false, status: 'unsupported', code: 'archive-format-unknown' });
  });
});

describe('detectArchiveFormat: other types are unsupported', () => {
  it.each(['text/html', 'application/x-tar', 'application/x-7z-compressed', 'application/json', 'application/x-zip-compressed'])('%s', (type) => {
    const r = detectArchiveFormat(type, 'https://a.test/skill.zip', ZIP);
    expect(r).toMatchObject({ ok: false, status: 'unsupported', code: 'archive-format-unsupported' });
  });
});

describe('detectArchiveFormat: magic bytes must agree', () => {
  it.each([
    ['application/zip', 'https://a.test/x.zip', GZIP],
    ['application/gzip', 'https://a.test/x.tar.gz', ZIP],
    ['application/gzip', 'https://a.test/x.tar.gz', EMPTY_ZIP],
    ['application/octet-stream', 'https://a.test/x.zip', GZIP],
    [null, 'https://a.test/x.tar.gz', ZIP],
    [null, 'https://a.test/x.tar.gz', OTHER],
    ['application/zip', 'https://a.test/x.zip', OTHER],
    ['application/zip', 'https://a.test/x.zip', new Uint8Array(0)],
    ['application/gzip', 'https://a.test/x.tar.gz', Uint8Array.from([0x1f])],
    ['application/zip', 'https://a.test/x.zip', Uint8Array.from([0x50, 0x4b, 0x01, 0x02])],
  ] as const)('%s + %s with other bytes → invalid', (type, url, bytes) => {
    const r = detectArchiveFormat(type, url, bytes);
    expect(r).toMatchObject({ ok: false, status: 'invalid', code: 'archive-magic-mismatch' });
    if (!r.ok) expect(r.message.length).toBeGreaterThan(10);
  });
});
