// Archives packed the usual way (FORMATS.md §6.4): `tar -czf x.tar.gz -C dir .` and `cd dir && zip -r x.zip ./`
// name their entries `./SKILL.md` and list `./` itself. A single leading `./` is the same path without
// it; `..`, absolute paths and links stay refused, and a refused link's message says where it pointed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkEntryName } from '../../../lib/verify/archive-names';
import { unpackArchive } from '../../../lib/verify/archive';
import { buildTarGz, buildZip, MINIMAL_SKILL_MD } from '../../support/archive-builder';

const work = mkdtempSync(join(tmpdir(), 'skillpin-dot-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function skillDir(name: string, link?: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), MINIMAL_SKILL_MD);
  writeFileSync(join(dir, 'scripts', 'run.sh'), 'echo hi\n');
  if (link !== undefined) symlinkSync(link, join(dir, 'example-key'));
  return dir;
}

function tarOf(dir: string): Uint8Array {
  const out = join(work, `${dir.split('/').pop()}.tar.gz`);
  execFileSync('tar', ['-czf', out, '-C', dir, '.']);
  return new Uint8Array(readFileSync(out));
}

function zipOf(dir: string): Uint8Array {
  const out = join(work, `${dir.split('/').pop()}.zip`);
  execFileSync('zip', ['-q', '-r', '--symlinks', out, './'], { cwd: dir });
  return new Uint8Array(readFileSync(out));
}

describe('archives packed with a leading ./', () => {
  it('tar -czf x.tar.gz -C dir . unpacks with ./ removed and the root entry dropped', async () => {
    const r = await unpackArchive(tarOf(skillDir('plain-tar')), 'tar.gz');
    if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
    expect(r.entries.map((e) => e.path).sort()).toEqual(['SKILL.md', 'scripts', 'scripts/run.sh']);
    expect(r.skillMd).toEqual(MINIMAL_SKILL_MD);
  });

  it('zip -r x.zip ./ unpacks the same way', async () => {
    const r = await unpackArchive(zipOf(skillDir('plain-zip')), 'zip');
    if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
    expect([...r.files.keys()].sort()).toEqual(['SKILL.md', 'scripts/run.sh']);
  });

  it('a symbolic link is still refused, and the message names its target (tar and zip)', async () => {
    const dir = skillDir('linked', '/home/user/.ssh/id_rsa');
    const tar = await unpackArchive(tarOf(dir), 'tar.gz');
    expect(tar).toMatchObject({ ok: false, code: 'archive-link' });
    if (!tar.ok) expect(tar.message).toContain('"/home/user/.ssh/id_rsa"');
    const zip = await unpackArchive(zipOf(dir), 'zip');
    expect(zip).toMatchObject({ ok: false, code: 'archive-link' });
    if (!zip.ok) expect(zip.message).toContain('"/home/user/.ssh/id_rsa"');
  });

  it('a hard link names its target too', async () => {
    const r = await unpackArchive(
      buildTarGz([
        { name: 'SKILL.md', data: MINIMAL_SKILL_MD },
        { name: 'x', typeflag: '1', linkname: 'SKILL.md' },
      ]),
      'tar.gz',
    );
    expect(r).toMatchObject({ ok: false, code: 'archive-link' });
    if (!r.ok) expect(r.message).toContain('hard link to "SKILL.md"');
  });

  it('./ with .., an absolute path, a second ./ or a duplicate of the same name stays refused', async () => {
    for (const [name, code] of [
      ['./../x.md', 'archive-path-traversal'],
      ['.//x.md', 'archive-path-absolute'],
      ['././x.md', 'archive-path-segment'],
      ['./SKILL.md', 'archive-duplicate-name'],
    ] as const) {
      const tar = await unpackArchive(
        buildTarGz([
          { name: 'SKILL.md', data: MINIMAL_SKILL_MD },
          { name, data: 'x' },
        ]),
        'tar.gz',
      );
      expect(tar, name).toMatchObject({ ok: false, code });
      const zip = await unpackArchive(
        buildZip([
          { name: 'SKILL.md', data: MINIMAL_SKILL_MD },
          { name, data: 'x' },
        ]),
        'zip',
      );
      expect(zip, name).toMatchObject({ ok: false, code });
    }
  });

  it('the rule is the readers\u2019 alone: a desktop file path ./x is still refused', () => {
    expect(checkEntryName('./SKILL.md', false)).toMatchObject({ ok: false, code: 'archive-path-segment' });
    expect(checkEntryName('./SKILL.md', false, 'name', true)).toEqual({ ok: true, path: 'SKILL.md' });
    expect(checkEntryName('./', true, 'name', true)).toEqual({ ok: true, path: '' });
    expect(checkEntryName('./', false, 'name', true)).toMatchObject({ ok: false });
  });
});
