import { gzipSync } from 'fflate';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unpackArchive } from '../../../lib/verify/archive';
import { buildTar, buildTarGz, gzip, sampleSkill, tarGzBomb, tarGzOfFiles, type TarEntrySpec } from '../../support/archive-builder';

const sha256Hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

const enc = new TextEncoder();
const SKILL = sampleSkill('acme/billing/refunds');
const SKILL_MD = SKILL.find((f) => f.name === 'SKILL.md')!.data;
const skillEntry: TarEntrySpec = { name: 'SKILL.md', data: SKILL_MD };

async function expectFailure(bytes: Uint8Array, status: string, code: string, limits?: { maxFiles?: number; maxBytes?: number }) {
  const r = await unpackArchive(bytes, 'tar.gz', limits);
  expect(r).toMatchObject({ ok: false, status, code });
  if (!r.ok) expect(r.message).toBeTypeOf('string');
  return r;
}

async function expectOk(bytes: Uint8Array) {
  const r = await unpackArchive(bytes, 'tar.gz');
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r;
}

describe('tar.gz: well-formed archives', () => {
  it('unpacks a sample skill with directories; entries, files and SKILL.md bytes', async () => {
    const r = await expectOk(tarGzOfFiles(SKILL));
    expect(r.format).toBe('tar.gz');
    expect(r.entries).toEqual([
      { path: 'templates', size: 0, type: 'directory' },
      { path: 'SKILL.md', size: SKILL_MD.length, type: 'file', sha256: sha256Hex(SKILL_MD) },
      { path: 'templates/refund-email-template.md', size: 807, type: 'file', sha256: sha256Hex(SKILL[1]!.data) },
    ]);
    expect(r.skillMd).toEqual(SKILL_MD);
    expect(r.files.get('templates/refund-email-template.md')).toEqual(SKILL[1]!.data);
  });

  it.each(['ustar', 'gnu', 'v7'] as const)('%s headers', async (format) => {
    const r = await expectOk(
      buildTarGz([
        { ...skillEntry, format },
        { name: 'a/b.md', data: 'b', format },
      ]),
    );
    expect(r.entries.map((e) => e.path)).toEqual(['SKILL.md', 'a/b.md']);
  });

  it("type flags '0', NUL and '7' are regular files", async () => {
    const r = await expectOk(buildTarGz([skillEntry, { name: 'a.md', data: 'a', typeflag: '\u0000' }, { name: 'b.md', data: 'b', typeflag: '7' }]));
    expect([...r.files.keys()]).toEqual(['SKILL.md', 'a.md', 'b.md']);
  });

  it('the ustar prefix field is joined to the name', async () => {
    const r = await expectOk(buildTarGz([skillEntry, { name: 'file.md', prefix: 'deep/dir', data: 'x' }]));
    expect(r.files.has('deep/dir/file.md')).toBe(true);
  });

  it('a PAX path and a GNU long name replace the header name', async () => {
    const long = `references/${'x'.repeat(150)}/notes-ü.md`;
    const r = await expectOk(buildTarGz([skillEntry, { name: long.slice(0, 100), pax: { path: long, mtime: '1.5' }, data: 'p' }, { name: 'short', longName: `${long}2`, data: 'g' }]));
    expect(r.files.get(long)).toEqual(enc.encode('p'));
    expect(r.files.get(`${long}2`)).toEqual(enc.encode('g'));
  });

  it('a PAX size replaces the header size', async () => {
    const r = await expectOk(
      buildTarGz([
        { ...skillEntry, headerSize: 0, pax: { size: String(SKILL_MD.length) } },
        { name: 'after.md', data: 'after' },
      ]),
    );
    expect(r.skillMd).toEqual(SKILL_MD);
    expect(r.files.get('after.md')).toEqual(enc.encode('after'));
  });

  it('mode, uid and gid are ignored (setuid scripts are plain bytes)', async () => {
    const r = await expectOk(
      buildTarGz([
        { ...skillEntry, mode: 0o7777 },
        { name: 'scripts/run.sh', data: '#!/bin/sh\nrm -rf /\n', mode: 0o4755 },
      ]),
    );
    expect(new TextDecoder().decode(r.files.get('scripts/run.sh'))).toContain('#!/bin/sh');
  });

  it('a base-256 size field', async () => {
    const r = await expectOk(buildTarGz([{ ...skillEntry, base256Size: true }]));
    expect(r.skillMd).toEqual(SKILL_MD);
  });

  it('a global PAX header without path or size is ignored', async () => {
    const r = await expectOk(buildTarGz([{ name: 'pax_global_header', typeflag: 'g', data: '17 comment=hello\n' }, skillEntry]));
    expect(r.entries).toHaveLength(1);
  });

  it('a GNU long link name before a regular file is ignored', async () => {
    await expectOk(buildTarGz([{ ...skillEntry, longLink: 'whatever' }]));
  });

  it('one end block, and zero padding to the record size, are accepted', async () => {
    await expectOk(buildTarGz([skillEntry], { endBlocks: 1 }));
    await expectOk(buildTarGz([skillEntry], { recordSize: 10240 }));
  });

  it('a gzip header with a file name, comment and header CRC', async () => {
    const tar = buildTar([skillEntry]);
    await expectOk(gzipSync(tar, { filename: 'skill.tar', mtime: 0 }));
    const withCrc = withHeaderCrc(gzipSync(tar, { mtime: 0 }), true);
    await expectOk(withCrc);
    await expectFailure(withHeaderCrc(gzipSync(tar, { mtime: 0 }), false), 'invalid', 'gzip-bad-header');
  });

  it('exactly 512 files', async () => {
    const entries: TarEntrySpec[] = [skillEntry];
    for (let i = 1; i < 512; i++) entries.push({ name: `f/${i}.txt` });
    const r = await expectOk(buildTarGz(entries));
    expect(r.files.size).toBe(512);
  });
});

/** Insert an FHCRC field (correct or not) into a gzip header without other optional fields. */
function withHeaderCrc(gz: Uint8Array, correct: boolean): Uint8Array {
  const out = new Uint8Array(gz.length + 2);
  out.set(gz.subarray(0, 10));
  out[3] = (out[3]! | 0x02) & 0xff;
  let crc = 0xffffffff;
  for (let i = 0; i < 10; i++) {
    crc ^= out[i]!;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  const value = ((crc ^ 0xffffffff) >>> 0) & 0xffff;
  const stored = correct ? value : value ^ 1;
  out[10] = stored & 0xff;
  out[11] = stored >>> 8;
  out.set(gz.subarray(10), 12);
  return out;
}

describe('tar.gz: caps (too-large)', () => {
  it('a tar.gz bomb: high ratio, small input', async () => {
    const bytes = buildTarGz([skillEntry, { name: 'bomb.bin', data: new Uint8Array(24 * 1024 * 1024) }]);
    expect(bytes.length).toBeLessThan(64 * 1024);
    await expectFailure(bytes, 'too-large', 'archive-too-large');
  });

  it('the ready-made bomb of the builder', async () => {
    await expectFailure(tarGzBomb(21 * 1024 * 1024), 'too-large', 'archive-too-large');
    expect((await unpackArchive(tarGzBomb(1024 * 1024), 'tar.gz')).ok).toBe(true);
  });

  it('file bytes over the cap even when the stream fits its allowance', async () => {
    const mib = new Uint8Array(1024 * 1024).fill(1);
    const entries: TarEntrySpec[] = [skillEntry];
    for (let i = 0; i < 17; i++) entries.push({ name: `part-${i}.bin`, data: mib });
    await expectFailure(buildTarGz(entries), 'too-large', 'archive-too-large');
    await expectFailure(buildTarGz([skillEntry, { name: 'a.bin', data: new Uint8Array(5000) }]), 'too-large', 'archive-too-large', { maxBytes: 4096 });
  });

  it('header sizes above the cap (octal, base-256, PAX) are refused', async () => {
    await expectFailure(buildTarGz([skillEntry, { name: 'big', headerSize: 0o77777777777 }]), 'too-large', 'archive-too-large');
    await expectFailure(buildTarGz([skillEntry, { name: 'big', headerSize: 2 ** 60, base256Size: true }]), 'too-large', 'archive-too-large');
    await expectFailure(buildTarGz([skillEntry, { name: 'big', pax: { size: '99999999999999999999' } }]), 'too-large', 'archive-too-large');
  });

  it('an extension header over 64 KiB', async () => {
    await expectFailure(buildTarGz([{ ...skillEntry, pax: { comment: 'x'.repeat(70000) } }]), 'too-large', 'archive-too-large');
  });

  it('513 regular files', async () => {
    const entries: TarEntrySpec[] = [skillEntry];
    for (let i = 1; i < 513; i++) entries.push({ name: `f/${i}.txt` });
    await expectFailure(buildTarGz(entries), 'too-large', 'archive-too-many-files');
    await expectFailure(tarGzOfFiles(SKILL), 'too-large', 'archive-too-many-files', { maxFiles: 1 });
  });

  it('more than eight times the file cap in entries', async () => {
    const entries: TarEntrySpec[] = [skillEntry];
    for (let i = 0; i < 64; i++) entries.push({ name: `d${i}/` });
    await expectFailure(buildTarGz(entries), 'too-large', 'archive-too-many-entries', { maxFiles: 4 });
  });
});

const BAD_NAMES: [string, string][] = [
  ['../SKILL.md', 'archive-path-traversal'],
  ['refs/../../x.md', 'archive-path-traversal'],
  ['/etc/passwd', 'archive-path-absolute'],
  ['C:\\x.md', 'archive-path-absolute'],
  ['\\\\host\\share\\x.md', 'archive-path-absolute'],
  ['refs\\x.md', 'archive-path-backslash'],
  ['a\u001bb.md', 'archive-path-control'],
  ['a\u0085b.md', 'archive-path-control'],
  ['a//b.md', 'archive-path-segment'],
  ['././x.md', 'archive-path-segment'],
  ['.//x.md', 'archive-path-absolute'],
  ['./../x.md', 'archive-path-traversal'],
  ['.//etc/passwd', 'archive-path-absolute'],
  ['a/./b.md', 'archive-path-segment'],
];

describe('tar.gz: path rules (whole archive invalid)', () => {
  it.each(BAD_NAMES)('header name %j → %s', async (name, code) => {
    await expectFailure(buildTarGz([skillEntry, { name, data: 'x' }]), 'invalid', code);
  });

  it.each([...BAD_NAMES, ['a\u0000b.md', 'archive-path-control'], ['', 'archive-path-empty']])('PAX path %j → %s', async (name, code) => {
    await expectFailure(buildTarGz([skillEntry, { name: 'ok.md', pax: { path: name }, data: 'x' }]), 'invalid', code);
  });

  it.each(BAD_NAMES)('GNU long name %j → %s', async (name, code) => {
    await expectFailure(buildTarGz([skillEntry, { name: 'ok.md', longName: name, data: 'x' }]), 'invalid', code);
  });

  it('a traversal in the ustar prefix', async () => {
    await expectFailure(buildTarGz([skillEntry, { name: 'x.md', prefix: '../..', data: 'x' }]), 'invalid', 'archive-path-traversal');
  });

  it('a good PAX path over a dangerous header name (read by tools that ignore PAX)', async () => {
    await expectFailure(buildTarGz([skillEntry, { name: '../evil.md', pax: { path: 'notes.md' }, data: 'x' }]), 'invalid', 'archive-path-traversal');
    await expectFailure(buildTarGz([skillEntry, { name: '/evil.md', longName: 'notes.md', data: 'x' }]), 'invalid', 'archive-path-absolute');
  });

  it('a PAX path and a GNU long name that disagree', async () => {
    await expectFailure(buildTarGz([skillEntry, { name: 'x.md', pax: { path: 'a.md' }, longName: 'b.md', data: 'x' }]), 'invalid', 'tar-conflicting-names');
  });

  it('names that are not UTF-8', async () => {
    await expectFailure(buildTarGz([skillEntry, { name: 'x', rawName: Uint8Array.from([0x61, 0xff]), data: 'x' }]), 'invalid', 'archive-name-encoding');
  });

  it('a regular file whose name ends in a slash', async () => {
    await expectFailure(buildTarGz([skillEntry, { name: 'dir/', typeflag: '0' }]), 'invalid', 'archive-path-segment');
  });
});

describe('tar.gz: entry types', () => {
  it.each([
    ['1', 'archive-link', 'hard link'],
    ['2', 'archive-link', 'symbolic link'],
    ['3', 'archive-special-entry', 'character device'],
    ['4', 'archive-special-entry', 'block device'],
    ['6', 'archive-special-entry', 'FIFO'],
    ['S', 'archive-special-entry', 'GNU sparse'],
    ['V', 'archive-special-entry', 'volume label'],
    ['D', 'archive-special-entry', 'GNU dump directory'],
    ['M', 'archive-special-entry', 'multi-volume continuation'],
    ['Z', 'archive-special-entry', 'unknown'],
  ])('type flag %s → %s (%s)', async (typeflag, code) => {
    await expectFailure(buildTarGz([skillEntry, { name: 'x', typeflag, linkname: '../../etc/passwd' }]), 'invalid', code);
  });

  it('a link replacing SKILL.md itself', async () => {
    await expectFailure(buildTarGz([{ name: 'SKILL.md', typeflag: '2', linkname: '/etc/passwd' }]), 'invalid', 'archive-link');
  });

  it('a PAX-described sparse file', async () => {
    await expectFailure(buildTarGz([skillEntry, { name: 'x', pax: { 'GNU.sparse.major': '1' }, data: 'x' }]), 'invalid', 'archive-special-entry');
  });

  it('a directory with contents', async () => {
    await expectFailure(buildTarGz([skillEntry, { name: 'd/', data: 'x' }]), 'invalid', 'tar-directory-has-data');
  });
});

describe('tar.gz: names must be unique', () => {
  it.each([
    [['SKILL.md', 'SKILL.md'], 'archive-duplicate-name'],
    [['SKILL.md', 'Skill.md'], 'archive-name-collision'],
    [['SKILL.md', 'caf\u00e9.md', 'cafe\u0301.md'], 'archive-name-collision'],
    [['SKILL.md', 'refs', 'refs/a.md'], 'archive-name-collision'],
    [['SKILL.md', 'refs/', 'refs/'], 'archive-duplicate-name'],
  ])('%j → %s', async (names, code) => {
    await expectFailure(buildTarGz(names.map((name) => ({ name, data: name.endsWith('/') ? undefined : SKILL_MD }))), 'invalid', code);
  });

  it('a PAX path colliding with an earlier header name', async () => {
    await expectFailure(buildTarGz([skillEntry, { name: 'x.md', pax: { path: 'skill.MD' }, data: 'x' }]), 'invalid', 'archive-name-collision');
  });
});

describe('tar.gz: malformed headers', () => {
  it('a wrong header checksum', async () => {
    await expectFailure(buildTarGz([skillEntry, { name: 'a.md', data: 'a', badChecksum: true }]), 'invalid', 'tar-bad-checksum');
  });

  it('a gzip stream that holds no tar', async () => {
    await expectFailure(gzip(enc.encode('just text, not a tar archive'.repeat(40))), 'invalid', 'tar-bad-checksum');
  });

  it('malformed PAX records', async () => {
    for (const data of ['12 path=a.md', '5 x=1\n', 'abc path=a\n', '11 path=ab\n\n', '10 =value\n', '10 path=a\n10 path=b\n']) {
      await expectFailure(buildTarGz([{ name: 'PaxHeader', typeflag: 'x', data }, skillEntry]), 'invalid', 'tar-bad-pax');
    }
    await expectFailure(buildTarGz([{ ...skillEntry, pax: { size: '12abc' } }]), 'invalid', 'tar-bad-pax');
  });

  it('two PAX headers, or two GNU long names, for one entry', async () => {
    await expectFailure(
      buildTarGz([
        { name: 'p1', typeflag: 'x', data: '11 mtime=1\n' },
        { ...skillEntry, pax: { mtime: '2' } },
      ]),
      'invalid',
      'tar-bad-pax',
    );
    await expectFailure(
      buildTarGz([
        { name: 'l', typeflag: 'L', data: 'a.md\u0000' },
        { ...skillEntry, longName: 'SKILL.md' },
      ]),
      'invalid',
      'tar-bad-header',
    );
  });

  it('a global PAX header that sets a path or a size', async () => {
    await expectFailure(buildTarGz([{ name: 'g', typeflag: 'g', data: '15 path=x/y.md\n' }, skillEntry]), 'invalid', 'tar-bad-pax');
    await expectFailure(buildTarGz([{ name: 'g', typeflag: 'g', data: '11 size=10\n' }, skillEntry]), 'invalid', 'tar-bad-pax');
  });

  it('a malformed size field', async () => {
    const tar = buildTar([skillEntry]);
    tar.set(enc.encode('00000zz0000\u0000'), 124);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : tar[i]!;
    tar.set(enc.encode(`${sum.toString(8).padStart(6, '0')}\u0000 `), 148);
    await expectFailure(gzip(tar), 'invalid', 'tar-bad-header');
  });
});

describe('tar.gz: truncation and trailing data', () => {
  const tar = buildTar([skillEntry, { name: 'a.md', data: 'a' }]);

  it('no end-of-archive marker', async () => {
    await expectFailure(buildTarGz([skillEntry], { endBlocks: 0 }), 'invalid', 'archive-truncated');
  });

  it('a short header, or data cut short', async () => {
    await expectFailure(gzip(tar.subarray(0, 300)), 'invalid', 'archive-truncated');
    await expectFailure(gzip(tar.subarray(0, 512 + 100)), 'invalid', 'archive-truncated');
    await expectFailure(gzip(tar.subarray(0, tar.length - 1024 - 300)), 'invalid', 'archive-truncated');
  });

  it('an extension header with no entry after it', async () => {
    await expectFailure(buildTarGz([skillEntry, { name: 'x', typeflag: 'x', data: '11 mtime=1\n' }]), 'invalid', 'archive-truncated');
    await expectFailure(buildTarGz([skillEntry, { name: 'l', typeflag: 'L', data: 'a.md\u0000' }]), 'invalid', 'archive-truncated');
  });

  it('data after the end-of-archive marker', async () => {
    await expectFailure(buildTarGz([skillEntry], { trailing: buildTar([{ name: 'hidden.md', data: 'x' }]) }), 'invalid', 'tar-trailing-data');
  });

  it('a gzip stream cut anywhere never unpacks and never throws', async () => {
    const gz = gzip(tar);
    for (let n = 0; n < gz.length; n++) {
      const r = await unpackArchive(gz.subarray(0, n), 'tar.gz');
      expect(r.ok).toBe(false);
    }
  });

  it('every single-byte change gives a result (never a throw)', async () => {
    const gz = buildTarGz([{ name: 'SKILL.md', data: 'hi' }]);
    for (let i = 0; i < gz.length; i++) {
      const copy = gz.slice();
      copy[i] = (copy[i]! ^ 0x5a) & 0xff;
      const r = await unpackArchive(copy, 'tar.gz');
      expect(typeof r.ok).toBe('boolean');
    }
  });
});

describe('tar.gz: gzip members', () => {
  const tar = buildTar([skillEntry, { name: 'a.md', data: 'a' }]);

  it('two gzip members', async () => {
    const bytes = gzip(tar, { members: 2 });
    await expectFailure(bytes, 'invalid', 'gzip-multiple-members');
  });

  it('a second member that adds a file after a complete first archive', async () => {
    const bytes = new Uint8Array([...gzip(tar), ...gzip(buildTar([{ name: 'extra.md', data: 'x' }]))]);
    await expectFailure(bytes, 'invalid', 'gzip-multiple-members');
  });

  it('bytes after the member: garbage, zeros, a few stray bytes', async () => {
    for (const trailing of [enc.encode('garbage after the member'), new Uint8Array(16), Uint8Array.from([1]), Uint8Array.from([0, 0, 0]), Uint8Array.from([7, 7, 7])]) {
      const r = await unpackArchive(gzip(tar, { trailing }), 'tar.gz');
      expect(r).toMatchObject({ ok: false, status: 'invalid' });
      if (!r.ok) expect(['gzip-trailing-data', 'gzip-trailer-mismatch']).toContain(r.code);
    }
  });

  it('a wrong CRC or length in the trailer', async () => {
    const gz = gzip(tar);
    const badCrc = gz.slice();
    badCrc[gz.length - 8] = (badCrc[gz.length - 8]! ^ 1) & 0xff;
    await expectFailure(badCrc, 'invalid', 'gzip-trailer-mismatch');
    const badLength = gz.slice();
    badLength[gz.length - 4] = (badLength[gz.length - 4]! ^ 1) & 0xff;
    await expectFailure(badLength, 'invalid', 'gzip-trailer-mismatch');
    await expectFailure(gz.subarray(0, gz.length - 3), 'invalid', 'gzip-trailer-mismatch');
  });

  it('a gzip stream cut inside the compressed data', async () => {
    const gz = gzip(tar);
    await expectFailure(gz.subarray(0, Math.floor(gz.length / 2)), 'invalid', 'archive-truncated');
  });

  it('an unacceptable gzip header', async () => {
    const gz = gzip(tar);
    const reserved = gz.slice();
    reserved[3] = 0x20;
    await expectFailure(reserved, 'invalid', 'gzip-bad-header');
    const method = gz.slice();
    method[2] = 7;
    await expectFailure(method, 'invalid', 'gzip-bad-header');
    await expectFailure(gz.subarray(0, 6), 'invalid', 'gzip-bad-header');
  });
});

describe('tar.gz: root SKILL.md', () => {
  it('an empty archive (end blocks only)', async () => {
    await expectFailure(buildTarGz([]), 'invalid', 'archive-empty');
  });

  it('an empty gzip stream', async () => {
    await expectFailure(gzip(new Uint8Array(0)), 'invalid', 'archive-truncated');
  });

  it('SKILL.md only inside a wrapper directory', async () => {
    const r = await expectFailure(tarGzOfFiles(SKILL.map((f) => ({ name: `refunds/${f.name}`, data: f.data }))), 'invalid', 'archive-no-root-skill-md');
    if (!r.ok) expect(r.message).toContain('wrapper');
  });

  it('SKILL.md as a directory', async () => {
    await expectFailure(buildTarGz([{ name: 'SKILL.md/' }]), 'invalid', 'archive-no-root-skill-md');
  });
});
