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

/** The heavier page of the page-load bench, at `/heavy.html`. */
export const HEAVY_PAGE = '/heavy.html';

/**
 * Writes a heavier page into a site folder: a long document (1,500 paragraphs), 4 stylesheets,
 * 6 scripts that parse and run (some milliseconds of work each) and 24 images, so the load is
 * made of many requests and much main-thread work, as a typical article page is. No frames.
 */
export function addHeavyPage(dir: string): void {
  mkdirSync(join(dir, 'heavy'), { recursive: true });
  const css: string[] = [];
  for (let i = 0; i < 4; i++) {
    const rules = Array.from(
      { length: 600 },
      (_, k) => `.c${i}-${k} p:nth-child(${(k % 7) + 1}) > span.x${k} { margin: ${k % 9}px; color: #${(k * 2654435761).toString(16).slice(-6).padStart(6, '0')}; }`,
    ).join('\n');
    writeFileSync(join(dir, 'heavy', `style-${i}.css`), `${rules}\n`);
    css.push(`<link rel="stylesheet" href="/heavy/style-${i}.css">`);
  }
  const js: string[] = [];
  for (let i = 0; i < 6; i++) {
    const table = Array.from({ length: 1500 }, (_, k) => `  f${k}: (x) => (x * ${k + 1}) % ${(k % 97) + 3},`).join('\n');
    writeFileSync(
      join(dir, 'heavy', `script-${i}.js`),
      `(() => {\nconst t = {\n${table}\n};\nlet acc = 0;\nfor (let r = 0; r < 4; r++) for (const k in t) acc = (acc + t[k](r + acc)) | 0;\nconst el = document.createElement('span');\nel.textContent = String(acc);\ndocument.body.appendChild(el);\n})();\n`,
    );
    js.push(`<script src="/heavy/script-${i}.js"></script>`);
  }
  const img: string[] = [];
  for (let i = 0; i < 24; i++) {
    const shapes = Array.from(
      { length: 30 },
      (_, k) => `<circle cx="${(k * 37 + i) % 200}" cy="${(k * 53 + i * 7) % 120}" r="${(k % 11) + 2}" fill="#${((i + 1) * (k + 3) * 4099).toString(16).slice(-6).padStart(6, '0')}"/>`,
    ).join('');
    writeFileSync(join(dir, 'heavy', `image-${i}.svg`), `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120">${shapes}</svg>\n`);
    img.push(`<img src="/heavy/image-${i}.svg" width="200" height="120" alt="">`);
  }
  const paragraphs = Array.from(
    { length: 1500 },
    (_, k) => `<p class="c${k % 4}-${k % 600}"><span class="x${k % 600}">Paragraph ${k}.</span> ${'Words of an article, set in a long page. '.repeat(3)}</p>`,
  ).join('\n');
  writeFileSync(
    join(dir, 'heavy.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>A heavier page</title>${css.join('')}${js.slice(0, 2).join('')}</head><body><h1>A heavier page</h1>${img.slice(0, 12).join('')}\n${paragraphs}\n${img.slice(12).join('')}${js.slice(2).join('')}</body></html>\n`,
  );
}
