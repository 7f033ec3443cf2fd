import { deflateSync, unzipSync } from 'fflate';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unpackArchive } from '../../../lib/verify/archive';
import { buildZip, sampleSkill, zipBomb, zipLocalRecord, zipOfFiles, type ZipEntrySpec } from '../../support/archive-builder';

const sha256Hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

const enc = new TextEncoder();
const SKILL = sampleSkill('code-review');
const SKILL_MD = SKILL.find((f) => f.name === 'SKILL.md')!.data;
const skillEntry: ZipEntrySpec = { name: 'SKILL.md', data: SKILL_MD, mode: 0o100644 };

async function expectFailure(bytes: Uint8Array, status: string, code: string, limits?: { maxFiles?: number; maxBytes?: number }) {
  const r = await unpackArchive(bytes, 'zip', limits);
  expect(r).toMatchObject({ ok: false, status, code });
  if (!r.ok) expect(r.message).toBeTypeOf('string');
  return r;
}

describe('zip: well-formed archives', () => {
  it('unpacks a sample skill with directories; entries, files and SKILL.md bytes', async () => {
    const bytes = zipOfFiles(SKILL);
    expect(Object.keys(unzipSync(bytes))).toHaveLength(3); // the builder output is a real zip
    const r = await unpackArchive(bytes, 'zip');
    if (!r.ok) throw new Error(r.message);
    expect(r.format).toBe('zip');
    expect(r.entries).toEqual([
      { path: 'references', size: 0, type: 'directory' },
      { path: 'SKILL.md', size: SKILL_MD.length, type: 'file', sha256: sha256Hex(SKILL_MD) },
      { path: 'references/REFERENCE.md', size: 1266, type: 'file', sha256: sha256Hex(SKILL.find((f) => f.name === 'references/REFERENCE.md')!.data) },
    ]);
    expect([...r.files.keys()]).toEqual(['SKILL.md', 'references/REFERENCE.md']);
    expect(r.skillMd).toEqual(SKILL_MD);
    expect(r.files.get('references/REFERENCE.md')).toEqual(SKILL.find((f) => f.name === 'references/REFERENCE.md')!.data);
  });

  it('stored entries, MS-DOS host, no directory entries', async () => {
    const r = await unpackArchive(
      buildZip([
        { name: 'SKILL.md', data: SKILL_MD, method: 0 },
        { name: 'a/b.txt', data: 'x', method: 0 },
      ]),
      'zip',
    );
    expect(r).toMatchObject({
      ok: true,
      entries: [
        { path: 'SKILL.md', type: 'file' },
        { path: 'a/b.txt', size: 1, type: 'file' },
      ],
    });
  });

  it('data descriptors (local sizes and CRC zero)', async () => {
    const r = await unpackArchive(
      buildZip([
        { ...skillEntry, dataDescriptor: true },
        { name: 'x.md', data: 'hello', dataDescriptor: true, method: 0 },
      ]),
      'zip',
    );
    expect(r.ok).toBe(true);
  });

  it('ZIP64 extra fields and a ZIP64 end record', async () => {
    const bytes = buildZip(
      [
        { ...skillEntry, zip64: true },
        { name: 'b.md', data: 'b', zip64: true },
      ],
      { zip64End: true },
    );
    const r = await unpackArchive(bytes, 'zip');
    expect(r).toMatchObject({ ok: true, entries: [{ path: 'SKILL.md' }, { path: 'b.md', size: 1 }] });
  });

  it('an archive comment and UTF-8 names', async () => {
    const r = await unpackArchive(buildZip([skillEntry, { name: 'notes-ü.md', data: 'ü' }], { comment: 'made for a test' }), 'zip');
    expect(r).toMatchObject({ ok: true, entries: [{ path: 'SKILL.md' }, { path: 'notes-ü.md', size: 2 }] });
  });

  it('exactly 512 files is within the cap', async () => {
    const entries: ZipEntrySpec[] = [skillEntry];
    for (let i = 1; i < 512; i++) entries.push({ name: `f/${i}.txt`, data: '', method: 0 });
    const r = await unpackArchive(buildZip(entries), 'zip');
    expect(r.ok && r.files.size).toBe(512);
  });

  it('permission bits (setuid, setgid, sticky) are ignored', async () => {
    const r = await unpackArchive(
      buildZip([
        { ...skillEntry, mode: 0o107777 },
        { name: 'run.sh', data: '#!/bin/sh\n', mode: 0o104755 },
      ]),
      'zip',
    );
    expect(r).toMatchObject({ ok: true, entries: [{ path: 'SKILL.md' }, { path: 'run.sh', type: 'file' }] });
  });

  it('the S_IFLNK bits are only read when the entry was made on Unix', async () => {
    const r = await unpackArchive(buildZip([skillEntry, { name: 'x', data: 'y', madeBy: 20, externalAttributes: (0o120777 << 16) >>> 0 }]), 'zip');
    expect(r.ok).toBe(true);
  });
});

describe('zip: caps (too-large)', () => {
  it('a zip bomb with honest headers: high ratio, small input', async () => {
    const zeros = new Uint8Array(17 * 1024 * 1024);
    const bytes = buildZip([skillEntry, { name: 'bomb.bin', data: zeros }]);
    expect(bytes.length).toBeLessThan(64 * 1024);
    await expectFailure(bytes, 'too-large', 'archive-too-large');
  });

  it('a zip bomb whose headers lie about the size is stopped while inflating', async () => {
    const bomb = deflateSync(new Uint8Array(24 * 1024 * 1024), { level: 9 });
    expect(bomb.length).toBeLessThan(128 * 1024);
    const entry: ZipEntrySpec = { name: 'bomb.bin', data: 'small', compressed: bomb };
    const started = Date.now();
    await expectFailure(buildZip([skillEntry, entry]), 'too-large', 'archive-too-large');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('the ready-made bombs of the builder', async () => {
    await expectFailure(zipBomb(20 * 1024 * 1024), 'too-large', 'archive-too-large');
    await expectFailure(zipBomb(20 * 1024 * 1024, { lyingSize: 10 }), 'too-large', 'archive-too-large');
    expect((await unpackArchive(zipBomb(1024 * 1024), 'zip')).ok).toBe(true);
  });

  it('the byte cap counts across entries', async () => {
    const mib = new Uint8Array(1024 * 1024).fill(7);
    const entries: ZipEntrySpec[] = [skillEntry];
    for (let i = 0; i < 17; i++) entries.push({ name: `part-${i}.bin`, data: mib });
    await expectFailure(buildZip(entries), 'too-large', 'archive-too-large');
    // A smaller cap from the caller applies too, with stored entries.
    await expectFailure(buildZip([skillEntry, { name: 'a.bin', data: new Uint8Array(5000), method: 0 }]), 'too-large', 'archive-too-large', { maxBytes: 4000 });
  });

  it('ZIP64 sizes above the cap are refused before inflating', async () => {
    const entry: ZipEntrySpec = {
      name: 'huge.bin',
      data: 'x',
      zip64: true,
      central: { extra: new Uint8Array([1, 0, 16, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]), size: 0xffffffff, compressedSize: 0xffffffff },
    };
    await expectFailure(buildZip([skillEntry, entry]), 'too-large', 'archive-too-large');
  });

  it('513 regular files', async () => {
    const entries: ZipEntrySpec[] = [skillEntry];
    for (let i = 1; i < 513; i++) entries.push({ name: `f/${i}.txt`, data: '', method: 0 });
    await expectFailure(buildZip(entries), 'too-large', 'archive-too-many-files');
  });

  it('the file cap from the caller; directories are not counted as files', async () => {
    const bytes = zipOfFiles(SKILL);
    await expectFailure(bytes, 'too-large', 'archive-too-many-files', { maxFiles: 1 });
    expect((await unpackArchive(bytes, 'zip', { maxFiles: 2 })).ok).toBe(true);
  });

  it('more than eight times the file cap in entries', async () => {
    const entries: ZipEntrySpec[] = [skillEntry];
    for (let i = 0; i < 64; i++) entries.push({ name: `d${i}/` });
    await expectFailure(buildZip(entries), 'too-large', 'archive-too-many-entries', { maxFiles: 4 });
  });
});

describe('zip: path rules (whole archive invalid)', () => {
  it.each([
    ['../SKILL.md', 'archive-path-traversal'],
    ['refs/../../x.md', 'archive-path-traversal'],
    ['/etc/passwd', 'archive-path-absolute'],
    ['C:\\x.md', 'archive-path-absolute'],
    ['\\\\host\\share\\x.md', 'archive-path-absolute'],
    ['refs\\x.md', 'archive-path-backslash'],
    ['a\u0000b.md', 'archive-path-control'],
    ['a\u001bb.md', 'archive-path-control'],
    ['a//b.md', 'archive-path-segment'],
    ['././x.md', 'archive-path-segment'],
    ['./../x.md', 'archive-path-traversal'],
    ['.//x.md', 'archive-path-absolute'],
    ['a/./b.md', 'archive-path-segment'],
    ['', 'archive-path-empty'],
  ])('%j → %s', async (name, code) => {
    await expectFailure(buildZip([skillEntry, { name, data: 'x' }]), 'invalid', code);
  });

  it('a name that is not UTF-8', async () => {
    await expectFailure(buildZip([skillEntry, { name: Uint8Array.from([0x61, 0xff, 0x62]), data: 'x' }]), 'invalid', 'archive-name-encoding');
  });
});

describe('zip: entry types', () => {
  it.each([
    [0o120777, 'archive-link'],
    [0o020644, 'archive-special-entry'],
    [0o060644, 'archive-special-entry'],
    [0o010644, 'archive-special-entry'],
    [0o140755, 'archive-special-entry'],
  ])('Unix mode %o → %s', async (mode, code) => {
    await expectFailure(buildZip([skillEntry, { name: 'x.md', data: '../../etc/passwd', mode }]), 'invalid', code);
  });

  it('a symlink made on macOS (host 19) is a link too', async () => {
    await expectFailure(buildZip([skillEntry, { name: 'x.md', data: '/etc', mode: 0o120755, madeBy: (19 << 8) | 20 }]), 'invalid', 'archive-link');
  });

  it('name and file type must agree; directories carry no data', async () => {
    await expectFailure(buildZip([skillEntry, { name: 'd', mode: 0o040755 }]), 'invalid', 'zip-type-mismatch');
    await expectFailure(buildZip([skillEntry, { name: 'f/', mode: 0o100644 }]), 'invalid', 'zip-type-mismatch');
    await expectFailure(buildZip([skillEntry, { name: 'd', externalAttributes: 0x10 }]), 'invalid', 'zip-type-mismatch');
    await expectFailure(buildZip([skillEntry, { name: 'd/', data: 'x' }]), 'invalid', 'zip-directory-has-data');
  });
});

describe('zip: names must be unique', () => {
  it.each([
    [['SKILL.md', 'SKILL.md'], 'archive-duplicate-name'],
    [['SKILL.md', 'Skill.md'], 'archive-name-collision'],
    [['SKILL.md', 'caf\u00e9.md', 'cafe\u0301.md'], 'archive-name-collision'],
    [['SKILL.md', 'refs', 'refs/a.md'], 'archive-name-collision'],
    [['SKILL.md', 'Refs/a.md', 'refs/b.md'], 'archive-name-collision'],
    [['SKILL.md', 'refs/', 'refs/'], 'archive-duplicate-name'],
  ])('%j → %s', async (names, code) => {
    await expectFailure(buildZip(names.map((name) => ({ name, data: name.endsWith('/') ? '' : SKILL_MD }))), 'invalid', code);
  });
});

describe('zip: encryption and header consistency', () => {
  it('an encrypted entry (bit 0), strong encryption (bit 6), AES (method 99)', async () => {
    await expectFailure(buildZip([skillEntry, { name: 'secret.md', data: 'x', encrypted: true }]), 'invalid', 'zip-encrypted');
    await expectFailure(buildZip([skillEntry, { name: 'secret.md', data: 'x', flags: 0x41 }]), 'invalid', 'zip-encrypted');
    await expectFailure(buildZip([skillEntry, { name: 'secret.md', data: 'x', method: 99, compressed: enc.encode('x') }]), 'invalid', 'zip-encrypted');
  });

  it.each([
    ['name', { local: { name: 'other.md' } }],
    ['method', { local: { method: 0 } }],
    ['flags', { local: { flags: 0x800 } }],
    ['crc', { local: { crc: 1234 } }],
    ['compressed size', { local: { compressedSize: 3 } }],
    ['size', { local: { size: 4 } }],
    ['name case', { local: { name: 'Notes.md' } }],
  ] as const)('local header disagrees: %s', async (_, override) => {
    await expectFailure(buildZip([skillEntry, { name: 'notes.md', data: 'some notes', ...override }]), 'invalid', 'zip-header-mismatch');
  });

  it('data descriptors: local sizes are not compared, the central CRC is still checked', async () => {
    const ok = await unpackArchive(buildZip([skillEntry, { name: 'n.md', data: 'abc', dataDescriptor: true, local: { crc: 99, size: 7 } }]), 'zip');
    expect(ok.ok).toBe(true);
    await expectFailure(buildZip([skillEntry, { name: 'n.md', data: 'abc', dataDescriptor: true, central: { crc: 99 } }]), 'invalid', 'zip-crc-mismatch');
  });

  it('a CRC that matches neither header but is the same in both', async () => {
    await expectFailure(buildZip([skillEntry, { name: 'n.md', data: 'abc', central: { crc: 5 }, local: { crc: 5 } }]), 'invalid', 'zip-crc-mismatch');
  });

  it('declared sizes that differ from the data in both headers', async () => {
    await expectFailure(buildZip([skillEntry, { name: 'n.md', data: 'abcdef', central: { size: 3 }, local: { size: 3 } }]), 'invalid', 'zip-size-mismatch');
    await expectFailure(buildZip([skillEntry, { name: 'n.md', data: 'abcdef', method: 0, central: { size: 3 }, local: { size: 3 } }]), 'invalid', 'zip-size-mismatch');
  });

  it('damaged deflate data', async () => {
    const bad = Uint8Array.from([0xff, 0xff, 0xff, 0xff]);
    await expectFailure(buildZip([skillEntry, { name: 'n.md', data: 'abc', compressed: bad }]), 'invalid', 'zip-corrupt-data');
    const good = deflateSync(enc.encode('abcabcabc abc abc'));
    await expectFailure(buildZip([skillEntry, { name: 'n.md', data: 'abcabcabc abc abc', compressed: good.subarray(0, good.length - 3) }]), 'invalid', 'zip-corrupt-data');
  });

  it('an unknown compression method is unsupported', async () => {
    await expectFailure(buildZip([skillEntry, { name: 'n.md', data: 'abc', method: 12, compressed: enc.encode('abc') }]), 'unsupported', 'zip-method-unsupported');
  });

  it('two central entries sharing bytes (overlapping local records)', async () => {
    const inner: ZipEntrySpec = { name: 'inner.md', data: 'inner', method: 0 };
    const record = zipLocalRecord(inner);
    const outerName = 'outer.bin';
    // The third entry exists only in the central directory and points at the record embedded
    // in the second entry's stored data.
    const skillRecordLength = zipLocalRecord(skillEntry).length;
    const fixed = buildZip([skillEntry, { name: outerName, data: record, method: 0 }, { ...inner, omitLocal: true, localOffset: skillRecordLength + 30 + outerName.length }]);
    expect(Object.keys(unzipSync(fixed))).toContain('inner.md'); // another reader takes it
    await expectFailure(fixed, 'invalid', 'zip-overlapping-entries');
  });
});

describe('zip: truncation and offsets', () => {
  const good = zipOfFiles(SKILL);

  it('no end record', async () => {
    await expectFailure(buildZip([skillEntry], { omitEnd: true }), 'invalid', 'zip-no-end-record');
    await expectFailure(good.subarray(0, good.length - 1), 'invalid', 'zip-no-end-record');
    await expectFailure(good.subarray(0, Math.floor(good.length / 2)), 'invalid', 'zip-no-end-record');
    await expectFailure(buildZip([skillEntry], { trailing: enc.encode('junk') }), 'invalid', 'zip-no-end-record');
  });

  it('central directory offset or entry count wrong', async () => {
    await expectFailure(buildZip([skillEntry], { centralOffsetDelta: 7 }), 'invalid', 'zip-bad-offset');
    await expectFailure(buildZip([skillEntry], { centralOffsetDelta: -7 }), 'invalid', 'zip-bad-central-directory');
    await expectFailure(buildZip([skillEntry, { name: 'a.md', data: 'a' }], { endEntryCount: 1 }), 'invalid', 'zip-bad-central-directory');
    await expectFailure(buildZip([skillEntry], { endEntryCount: 2 }), 'invalid', 'zip-bad-central-directory');
  });

  it('a local header offset that points nowhere useful', async () => {
    await expectFailure(buildZip([skillEntry, { name: 'a.md', data: 'a', localOffset: 5 }]), 'invalid', 'zip-bad-offset');
    await expectFailure(buildZip([skillEntry, { name: 'a.md', data: 'a', localOffset: 0x7fffffff }]), 'invalid', 'zip-bad-offset');
    await expectFailure(buildZip([skillEntry, { name: 'a.md', data: 'a', central: { compressedSize: 100000 }, local: { compressedSize: 100000 } }]), 'invalid', 'zip-bad-offset');
  });

  it('cut at every length, the result is a failure and never a throw', async () => {
    for (let n = 0; n < good.length; n++) {
      const r = await unpackArchive(good.subarray(0, n), 'zip');
      expect(r.ok).toBe(false);
    }
  });

  it('every single-byte change gives a result (never a throw)', async () => {
    const small = buildZip([{ name: 'SKILL.md', data: 'hi' }]);
    for (let i = 0; i < small.length; i++) {
      const copy = small.slice();
      copy[i] = (copy[i]! ^ 0xa5) & 0xff;
      const r = await unpackArchive(copy, 'zip');
      expect(typeof r.ok).toBe('boolean');
    }
  });
});

describe('zip: root SKILL.md', () => {
  it('an empty zip (end record only)', async () => {
    const bytes = buildZip([]);
    expect(bytes.length).toBe(22);
    await expectFailure(bytes, 'invalid', 'archive-empty');
  });

  it('SKILL.md only inside a wrapper directory', async () => {
    const wrapped = SKILL.map((f) => ({ name: `code-review/${f.name}`, data: f.data }));
    const r = await expectFailure(zipOfFiles(wrapped), 'invalid', 'archive-no-root-skill-md');
    if (!r.ok) expect(r.message).toContain('code-review/SKILL.md');
  });

  it('skill.md in another case, or SKILL.md as a directory', async () => {
    await expectFailure(buildZip([{ name: 'skill.md', data: SKILL_MD }]), 'invalid', 'archive-no-root-skill-md');
    await expectFailure(buildZip([{ name: 'SKILL.md/' }, { name: 'SKILL.md/x', data: 'x' }]), 'invalid', 'archive-no-root-skill-md');
  });
});
