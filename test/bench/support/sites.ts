// Generated publisher sites for the benchmarks: N signed skills with every field the
// reference validator requires (name, description, version, license).
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writePublisherSite, type SkillSpec } from '../../../scripts/lib/publisher-site.mjs';

export function generatedSkills(n: number, prefix = 'skill'): SkillSpec[] {
  const out: SkillSpec[] = [];
  for (let i = 0; i < n; i++) {
    const id = String(i + 1).padStart(4, '0');
    out.push({
      name: `${prefix}-${id}`,
      description: `Generated skill ${id}: answer questions about section ${id} of this site precisely.`,
      version: `1.${i % 10}.0`,
      license: 'MIT',
      body: `Use this skill for section ${id}.\n\n1. Read the page.\n2. Quote the relevant paragraph.\n3. Answer precisely.\n\n${'Background notes. '.repeat(20 + (i % 40))}\n`,
    });
  }
  return out;
}

export function seedFor(n: number): Uint8Array {
  return new Uint8Array(32).fill((n % 250) + 1);
}

/** A folder holding a signed site of `n` skills (n = 0: a site that publishes nothing). */
export function makeSite(n: number, seedByte = n): string {
  const dir = mkdtempSync(join(tmpdir(), `skillpin-bench-site-${n}-`));
  if (n === 0) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><title>Plain site</title></head><body><h1>Plain site</h1><p>Publishes no skills.</p></body></html>\n');
    return dir;
  }
  writePublisherSite(dir, { skills: generatedSkills(n), seed: seedFor(seedByte), title: `Site with ${n} skills` });
  return dir;
}
