// The root SKILL.md inside an archive is capped like a plain SKILL.md (256 KiB, FORMATS.md §9.1):
// an archive within its own caps is no way around that cap.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SKILL_MD, unpackArchive } from '../../../lib/verify/archive';
import { capFor } from '../../../lib/net/limits';
import { buildTarGz, buildZip } from '../../support/archive-builder';

const enc = new TextEncoder();
const HEAD = '---\nname: big\ndescription: over the cap\n---\n';

function skillMdOf(size: number): Uint8Array {
  return enc.encode((HEAD + 'x'.repeat(size)).slice(0, size));
}

const builders = {
  zip: (data: Uint8Array) =>
    buildZip([
      { name: 'SKILL.md', data },
      { name: 'README.md', data: 'other file\n' },
    ]),
  'tar.gz': (data: Uint8Array) =>
    buildTarGz([
      { name: 'SKILL.md', data },
      { name: 'README.md', data: 'other file\n' },
    ]),
} as const;

describe('archive root SKILL.md cap', () => {
  it('is the cap of a plain SKILL.md', () => {
    expect(DEFAULT_MAX_SKILL_MD).toBe(capFor('skill-md'));
    expect(DEFAULT_MAX_SKILL_MD).toBe(256 * 1024);
  });

  for (const format of ['zip', 'tar.gz'] as const) {
    it(`${format}: a root SKILL.md of exactly 256 KiB unpacks`, async () => {
      const r = await unpackArchive(builders[format](skillMdOf(capFor('skill-md'))), format);
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.skillMd.byteLength).toBe(capFor('skill-md'));
    });

    it(`${format}: one byte over is too-large with its own code`, async () => {
      const r = await unpackArchive(builders[format](skillMdOf(capFor('skill-md') + 1)), format);
      expect(r).toMatchObject({ ok: false, status: 'too-large', code: 'archive-skill-md-too-large' });
    });

    it(`${format}: a 4 MiB root SKILL.md is too-large`, async () => {
      const r = await unpackArchive(builders[format](skillMdOf(4 * 1024 * 1024)), format);
      expect(r).toMatchObject({ ok: false, status: 'too-large', code: 'archive-skill-md-too-large' });
      if (!r.ok) expect(r.message).toContain('4194304 bytes');
    });

    it(`${format}: other files may be larger than 256 KiB`, async () => {
      const bytes =
        format === 'zip'
          ? buildZip([
              { name: 'SKILL.md', data: skillMdOf(1000) },
              { name: 'data.bin', data: new Uint8Array(capFor('skill-md') * 2) },
            ])
          : buildTarGz([
              { name: 'SKILL.md', data: skillMdOf(1000) },
              { name: 'data.bin', data: new Uint8Array(capFor('skill-md') * 2) },
            ]);
      expect((await unpackArchive(bytes, format)).ok).toBe(true);
    });
  }
});
