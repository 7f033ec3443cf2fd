// The pre-flight over every SKILL.md of the shared corpus: how many real skills could be
// uploaded as they are published, and why the others cannot (the corpus copy in test/fixtures/corpus).
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { unzipSync } from 'fflate';
import { CORPUS } from '../../support/corpus-sites';
import { preflight } from '../../../lib/export/preflight';
import { buildSkillZip } from '../../../lib/export/skill-zip';

function skillFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...skillFiles(p));
    else if (name === 'SKILL.md') out.push(p);
  }
  return out.sort();
}

describe('pre-flight over the corpus', () => {
  const files = skillFiles(CORPUS);
  const results = files.map((f) => ({ path: relative(CORPUS, f), bytes: new Uint8Array(readFileSync(f)), result: preflight(new Uint8Array(readFileSync(f))) }));

  it('sorts all 239 SKILL.md files into exportable ones and refusals with their reasons', () => {
    expect(files.length).toBe(239);
    const exportable = results.filter((r) => r.result.ok);
    const reasons = new Map<string, number>();
    for (const r of results) if (!r.result.ok) for (const p of r.result.problems) reasons.set(p.code, (reasons.get(p.code) ?? 0) + 1);
    expect(exportable.length).toBe(196);
    expect(files.length - exportable.length).toBe(43);
    expect(Object.fromEntries(reasons)).toEqual({
      // 22 files start with a Markdown heading and one with a byte order mark before "---".
      'frontmatter-missing': 23,
      // Names with underscores (8: the docs site and its previous generation), a space, a slash.
      'name-characters': 10,
      // YAML the parser refuses (unquoted ": " inside a value).
      'frontmatter-unreadable': 9,
      'description-xml': 1,
    });
    // Every refused file has at least one sentence, and every sentence ends like one.
    for (const r of results) if (!r.result.ok) for (const p of r.result.problems) expect(p.message).toMatch(/[.)]$/);
  });

  it('every SKILL.md without frontmatter at its start is refused with that reason', () => {
    const noFrontmatter = results.filter((r) => !(r.bytes[0] === 0x2d && r.bytes[1] === 0x2d && r.bytes[2] === 0x2d));
    expect(noFrontmatter.length).toBe(23);
    for (const r of noFrontmatter) expect(r.result.ok ? [] : r.result.problems.map((p) => p.code)).toEqual(['frontmatter-missing']);
  });

  it('every exportable one zips to <name>/SKILL.md with the bytes unchanged', () => {
    for (const r of results) {
      if (!r.result.ok) continue;
      const back = unzipSync(buildSkillZip(r.result.name, r.bytes, [], new Date(Date.UTC(2026, 0, 1))));
      expect(Object.keys(back)).toEqual([`${r.result.name}/SKILL.md`]);
      expect(Buffer.from(back[`${r.result.name}/SKILL.md`]!).equals(Buffer.from(r.bytes))).toBe(true);
    }
  });
});
