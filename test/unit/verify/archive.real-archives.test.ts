// Archives made by real tools (GNU tar, Info-ZIP, Python's zipfile) and the one archive published
// in the corpus (hull). The fixture files are byte-exact copies; see test/fixtures/archives/README.md.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectArchiveFormat, unpackArchive } from '../../../lib/verify/archive';
import { FIXTURES_DIR, sampleSkill } from '../../support/archive-builder';

function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES_DIR, name)));
}

describe('the hull archive (positive vector)', () => {
  const bytes = fixture('author-hull-problems.tar.gz');

  it('is the published file', () => {
    expect(createHash('sha256').update(bytes).digest('hex')).toBe('eec9f10bd9b6ef7f23fdcabf628dacb7db2c3fceba3da0ce463a34c1df614958');
  });

  it('is detected as tar.gz from its Content-Type or its URL', () => {
    const url = 'https://hull.test/.well-known/agent-skills/author-hull-problems.tar.gz';
    expect(detectArchiveFormat('application/gzip', url, bytes)).toEqual({ ok: true, format: 'tar.gz' });
    expect(detectArchiveFormat(null, url, bytes)).toEqual({ ok: true, format: 'tar.gz' });
    expect(detectArchiveFormat('application/zip', url, bytes)).toMatchObject({ ok: false, status: 'invalid' });
  });

  it('unpacks to 8 entries with a root SKILL.md of 8,228 bytes', async () => {
    const r = await unpackArchive(bytes, 'tar.gz');
    if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
    expect(r.entries).toHaveLength(8);
    expect(r.entries.filter((e) => e.type === 'directory').map((e) => e.path)).toEqual(['references']);
    expect(r.files.size).toBe(7);
    expect(r.skillMd.length).toBe(8228);
    expect(r.files.get('SKILL.md')).toBe(r.skillMd);
    expect(new TextDecoder().decode(r.skillMd.subarray(0, 4))).toBe('---\n');
    expect(r.entries.find((e) => e.path === 'references/problem-design-and-statement.md')).toEqual({
      path: 'references/problem-design-and-statement.md',
      size: 12872,
      type: 'file',
      sha256: createHash('sha256').update(r.files.get('references/problem-design-and-statement.md')!).digest('hex'),
    });
  });

  it('is refused under smaller caps', async () => {
    expect(await unpackArchive(bytes, 'tar.gz', { maxFiles: 6 })).toMatchObject({ ok: false, status: 'too-large', code: 'archive-too-many-files' });
    expect(await unpackArchive(bytes, 'tar.gz', { maxBytes: 50_000 })).toMatchObject({ ok: false, status: 'too-large' });
  });

  it('is refused as a zip', async () => {
    expect(await unpackArchive(bytes, 'zip')).toMatchObject({ ok: false, status: 'invalid', code: 'zip-no-end-record' });
  });
});

describe('archives made by real tools', () => {
  const codeReview = sampleSkill('code-review');
  const gitCommitReview = sampleSkill('git-commit-review');

  it.each([
    ['tool-infozip.zip', 'zip'],
    ['tool-python-streamed.zip', 'zip'],
    ['tool-gnutar-gnu.tar.gz', 'tar.gz'],
    ['tool-gnutar-pax.tar.gz', 'tar.gz'],
    ['tool-gnutar-ustar.tar.gz', 'tar.gz'],
  ] as const)('%s unpacks to the sample skill', async (name, format) => {
    const r = await unpackArchive(fixture(name), format);
    if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
    for (const f of codeReview) expect(r.files.get(f.name)).toEqual(f.data);
    expect(r.files.size).toBe(codeReview.length);
  });

  it.each(['tool-gnutar-pax-longpath.tar.gz', 'tool-gnutar-gnu-longname.tar.gz'])('%s: paths over 100 bytes (PAX / GNU long names)', async (name) => {
    const r = await unpackArchive(fixture(name), 'tar.gz');
    if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
    const long = `references/${'a-really-long-directory-name-for-testing-'.repeat(3)}/notes-ü.md`;
    expect(r.files.get(long)).toEqual(new TextEncoder().encode('long path file\n'));
    expect(r.skillMd).toEqual(gitCommitReview.find((f) => f.name === 'SKILL.md')!.data);
    expect(r.entries.map((e) => e.type)).toEqual(['file', 'directory', 'directory', 'file']);
  });

  it('a symlink stored by Info-ZIP (zip -y) is refused', async () => {
    expect(await unpackArchive(fixture('tool-infozip-symlink.zip'), 'zip')).toMatchObject({ ok: false, status: 'invalid', code: 'archive-link' });
  });

  it('a symlink stored by GNU tar is refused', async () => {
    expect(await unpackArchive(fixture('tool-gnutar-symlink.tar.gz'), 'tar.gz')).toMatchObject({ ok: false, status: 'invalid', code: 'archive-link' });
  });

  it('a GNU tar made with "tar -C dir ." (./ prefixes) unpacks: a single leading ./ is the same path without it', async () => {
    const r = await unpackArchive(fixture('tool-gnutar-dot-prefix.tar.gz'), 'tar.gz');
    if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
    expect(r.files.has('SKILL.md')).toBe(true);
    expect(r.entries.every((e) => e.path !== '' && !e.path.startsWith('./'))).toBe(true);
  });

  it('the symlinks stored by Info-ZIP and GNU tar are refused with their targets named', async () => {
    for (const [file, format] of [
      ['tool-infozip-symlink.zip', 'zip'],
      ['tool-gnutar-symlink.tar.gz', 'tar.gz'],
    ] as const) {
      const r = await unpackArchive(fixture(file), format);
      expect(r).toMatchObject({ ok: false, code: 'archive-link' });
      if (!r.ok) expect(r.message, file).toMatch(/symbolic link to "/);
    }
  });
});
