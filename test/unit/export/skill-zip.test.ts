// The ZIP of "Export for upload", read back with readers that did not write it: fflate's unzipSync
// and Skillpin's own archive reader (the one that unpacks published archives). It must hold exactly
// <name>/SKILL.md (plus an archive's files) with byte-identical content.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { buildSkillZip, zipFilename } from '../../../lib/export/skill-zip';
import { exportSkill } from '../../../lib/export/export-skill';
import { unpackArchive } from '../../../lib/verify/archive';
import { readZip } from '../../../lib/verify/archive-zip';
import { resolveLimits } from '../../../lib/verify/archive-limits';
import { sha256, toHex } from '../../../lib/verify/sha256';
import type { Approval } from '../../../lib/types';
import type { StoredSkill } from '../../../lib/store/records';

const fixture = (p: string) => new Uint8Array(readFileSync(join(__dirname, '../../fixtures', p)));
const when = new Date(Date.UTC(2026, 10, 29, 12, 0, 0));

function approvalFor(s: StoredSkill): Approval {
  return { origin: s.origin, url: s.url, digestLf: s.digestLf, digestRaw: s.digestRaw, keyFingerprint: 'SHA256:key', statusAtApproval: 'verified-signed', name: 'n', approvedAt: 1 };
}

describe('buildSkillZip', () => {
  it('holds exactly <name>/SKILL.md with the CRLF bytes unchanged', () => {
    const bytes = fixture('export/crlf-placeholder.SKILL.md');
    expect(bytes.includes(0x0d)).toBe(true);
    const zip = buildSkillZip('placeholder', bytes, [], when);
    const back = unzipSync(zip);
    expect(Object.keys(back)).toEqual(['placeholder/SKILL.md']);
    expect(Buffer.from(back['placeholder/SKILL.md']!).equals(Buffer.from(bytes))).toBe(true);
  });

  it("puts an archive skill's files under the same folder, in a stable order", () => {
    const skillMd = new TextEncoder().encode('---\nname: tool\ndescription: d\n---\n');
    const files = [
      { path: 'scripts/run.sh', bytes: new Uint8Array([1, 2, 3]) },
      { path: 'references/a b.md', bytes: new Uint8Array(0) },
    ];
    const zip = buildSkillZip('tool', skillMd, files, when);
    const back = unzipSync(zip);
    expect(Object.keys(back)).toEqual(['tool/SKILL.md', 'tool/references/a b.md', 'tool/scripts/run.sh']);
    expect([...back['tool/scripts/run.sh']!]).toEqual([1, 2, 3]);
    expect(buildSkillZip('tool', skillMd, [...files].reverse(), when)).toEqual(zip);
  });

  it('names the download after the folder', () => {
    expect(zipFilename('pdf-processing')).toBe('pdf-processing.zip');
  });
});

describe('exportSkill over stored verified bytes', () => {
  it('a plain SKILL.md: the ZIP, and a record of origin, URL, digests, key and date', async () => {
    const bytes = fixture('export/spec-with-optional-fields.SKILL.md');
    const digest = toHex(await sha256(bytes));
    const stored: StoredSkill = { origin: 'https://pub.example', url: 'https://pub.example/s/SKILL.md', digestLf: digest, digestRaw: digest, bytes, storedAt: 1 };
    const r = exportSkill(stored, approvalFor(stored), when.getTime());
    if (!r.ok) throw new Error(r.message);
    expect(r.filename).toBe('pdf-processing.zip');
    expect(r.record).toEqual({
      origin: 'https://pub.example',
      url: 'https://pub.example/s/SKILL.md',
      name: 'pdf-processing',
      digestLf: digest,
      digestRaw: digest,
      keyFingerprint: 'SHA256:key',
      archiveSha256: null,
      filesDigest: null,
      exportedAt: when.getTime(),
    });
    const back = unzipSync(r.zip);
    expect(Object.keys(back)).toEqual(['pdf-processing/SKILL.md']);
    expect(toHex(await sha256(back['pdf-processing/SKILL.md']!))).toBe(digest);
  });

  it('a real archive skill: every verified file under <name>/, byte-identical', async () => {
    const tgz = fixture('archives/author-hull-problems.tar.gz');
    const unpacked = await unpackArchive(tgz, 'tar.gz');
    if (!unpacked.ok) throw new Error(unpacked.message);
    const files = [...unpacked.files].filter(([p]) => p !== 'SKILL.md').map(([path, bytes]) => ({ path, bytes }));
    expect(files.length).toBeGreaterThan(0);
    const raw = toHex(await sha256(unpacked.skillMd));
    const stored: StoredSkill = {
      origin: 'https://pub.example',
      url: 'https://pub.example/a.tar.gz',
      digestLf: raw,
      digestRaw: raw,
      bytes: unpacked.skillMd,
      storedAt: 1,
      archive: { sha256: toHex(await sha256(tgz)), format: 'tar.gz', entries: unpacked.entries, files },
    };
    const r = exportSkill(stored, approvalFor(stored), when.getTime());
    if (!r.ok) throw new Error(r.message);
    expect(r.filename).toBe('author-hull-problems.zip');
    expect(r.record.archiveSha256).toBe(stored.archive!.sha256);
    const back = unzipSync(r.zip);
    const expected = [...unpacked.files.keys()].map((p) => `author-hull-problems/${p}`).sort();
    expect(Object.keys(back).sort()).toEqual(expected);
    for (const [p, bytes] of unpacked.files) expect(Buffer.from(back[`author-hull-problems/${p}`]!).equals(Buffer.from(bytes))).toBe(true);
    // Skillpin's own ZIP reader (its central-directory parser and the unpack's safety rules) agrees.
    const again = readZip(r.zip, resolveLimits());
    if (!again.ok) throw new Error(again.message);
    expect([...again.files.keys()].sort()).toEqual(expected);
    for (const [p, bytes] of unpacked.files) expect(Buffer.from(again.files.get(`author-hull-problems/${p}`)!).equals(Buffer.from(bytes))).toBe(true);
  });

  it('refuses an archive whose other files were not stored (an older record) instead of exporting a partial skill', () => {
    const bytes = fixture('export/spec-with-optional-fields.SKILL.md');
    const stored: StoredSkill = {
      origin: 'https://pub.example',
      url: 'https://pub.example/a.zip',
      digestLf: 'a'.repeat(64),
      digestRaw: 'a'.repeat(64),
      bytes,
      storedAt: 1,
      archive: {
        sha256: 'b'.repeat(64),
        format: 'zip',
        entries: [
          { path: 'SKILL.md', size: bytes.length, type: 'file' },
          { path: 'ref.md', size: 3, type: 'file' },
        ],
      },
    };
    expect(exportSkill(stored, approvalFor(stored), 1)).toMatchObject({ ok: false, error: 'files-missing' });
  });

  it('refuses a skill without frontmatter and builds no file', () => {
    const bytes = fixture('export/no-frontmatter-site-facts.SKILL.md');
    const stored: StoredSkill = { origin: 'https://pub.example', url: 'https://pub.example/f/SKILL.md', digestLf: 'a'.repeat(64), digestRaw: 'a'.repeat(64), bytes, storedAt: 1 };
    const r = exportSkill(stored, approvalFor(stored), 1);
    expect(r.ok).toBe(false);
    expect(r).not.toHaveProperty('zip');
    if (!r.ok) expect(r.problems.map((p) => p.code)).toEqual(['frontmatter-missing']);
  });
});
