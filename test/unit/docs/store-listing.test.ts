// docs/store/ is what goes into the store forms: the short descriptions are the manifest's
// description in each language and fit the Chrome Web Store's 132 characters; the images the
// listings name are there, at the sizes the stores take (screenshots 1280×800, the small promo
// tile 440×280), and no other image lies beside them; the reviewer notes name the version being
// built.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');
const STORE = join(ROOT, 'docs/store');
const read = (f: string) => readFileSync(join(STORE, f), 'utf8');

/** The paragraph under `## <title>`. */
function sectionText(markdown: string, title: string): string {
  const m = new RegExp(`(?:^|\\n)## ${title}\\n\\n([\\s\\S]*?)(?=\\n## |$)`).exec(markdown);
  if (!m?.[1]) throw new Error(`no "## ${title}" section`);
  return m[1].trim();
}

/** Width and height from a PNG's IHDR chunk; throws on anything that is not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature) || bytes.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

const LISTINGS = [
  { file: 'listing-en.md', locale: 'en', short: 'Short description', long: 'Long description', shots: 'Screenshots' },
  { file: 'listing-de.md', locale: 'de', short: 'Kurzbeschreibung', long: 'Ausführliche Beschreibung', shots: 'Bildschirmfotos' },
];

describe('the PNG size reader', () => {
  it('reads the size of a PNG and refuses other bytes', () => {
    const icon = readFileSync(join(ROOT, 'public/icon/48.png'));
    expect(pngSize(icon)).toEqual({ width: 48, height: 48 });
    expect(() => pngSize(Buffer.from('GIF89a not a png at all'))).toThrow('not a PNG');
  });
});

describe('docs/store listings', () => {
  for (const l of LISTINGS) {
    it(`${l.file}: the short description is the manifest's (${l.locale}) and fits 132 characters`, () => {
      const messages = JSON.parse(readFileSync(join(ROOT, `public/_locales/${l.locale}/messages.json`), 'utf8')) as Record<string, { message: string }>;
      const short = sectionText(read(l.file), l.short);
      expect(short).toBe(messages.extDescription?.message);
      expect([...short].length).toBeLessThanOrEqual(132);
      expect(sectionText(read(l.file), l.long).length).toBeGreaterThan(500);
    });
  }

  it('every image a listing names is there at the size its store takes, and nothing else is', () => {
    const named = LISTINGS.map((l) => [...sectionText(read(l.file), l.shots).matchAll(/`([\w.-]+\.png)`/g)].map((m) => m[1] ?? ''));
    expect(named[1]).toEqual(named[0]);
    const names = named[0] ?? [];
    expect(names.filter((n) => n.startsWith('screenshot-')).length).toBeGreaterThanOrEqual(1);
    expect(names.filter((n) => n.startsWith('screenshot-')).length).toBeLessThanOrEqual(5);
    expect(names).toContain('promo-tile.png');
    const images = join(STORE, 'images');
    expect(readdirSync(images).sort()).toEqual([...names].sort());
    for (const n of names) {
      const bytes = readFileSync(join(images, n));
      expect(pngSize(bytes), n).toEqual(n === 'promo-tile.png' ? { width: 440, height: 280 } : { width: 1280, height: 800 });
      expect(statSync(join(images, n)).size, `${n} is kept small`).toBeLessThan(300 * 1024);
    }
  });

  it('the reviewer notes build the version package.json holds', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const named = [...read('amo-reviewer-notes.md').matchAll(/skillpin-(\d+\.\d+\.\d+)-/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named)).toEqual(new Set([version]));
  });
});
