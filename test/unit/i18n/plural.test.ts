// Counted messages through the locale files: Intl.PluralRules of the
// catalogue's language picks `<base>_one`, `<base>_other` (or another CLDR form the catalogue has),
// and the count is written for the browser's language.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatEntry, setMessageSource } from '../../../lib/i18n';
import { setUiLanguage } from '../../../lib/i18n/format';
import { pluralKey, tn } from '../../../lib/i18n/plural';

type Catalogue = Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;
const ROOT = join(__dirname, '../../..');
const catalogue = (lang: string) => JSON.parse(readFileSync(join(ROOT, 'public/_locales', lang, 'messages.json'), 'utf8')) as Catalogue;

function speak(entries: Catalogue): void {
  setMessageSource((name, subs) => {
    const entry = entries[name];
    return entry ? formatEntry(entry, subs ?? []) : '';
  });
}

afterEach(() => {
  setMessageSource(null);
  setUiLanguage(null);
});

describe('plurals', () => {
  it('English: one approval, 2 approvals, 0 approvals; the count in English digits', () => {
    setMessageSource(null);
    setUiLanguage(() => 'en-US');
    expect(tn('import_will_approve', 1)).toBe('1 approval');
    expect(tn('import_will_approve', 2)).toBe('2 approvals');
    expect(tn('import_will_approve', 0)).toBe('0 approvals');
    expect(tn('import_known_approvals', 12345)).toBe('12,345 approvals already known');
    expect(pluralKey('import_will_approve', 1)).toBe('import_will_approve_one');
  });

  it('German: its own forms and digits', () => {
    speak(catalogue('de'));
    setUiLanguage(() => 'de-DE');
    expect(tn('import_will_approve', 1)).toBe('1 Freigabe');
    expect(tn('import_will_approve', 3)).toBe('3 Freigaben');
    expect(tn('import_known_approvals', 12345)).toBe('12.345 Freigaben schon bekannt');
  });

  it('a language with more forms takes the one its rules pick, and _other where the catalogue has none', () => {
    // Polish: 1 → one, 2–4 → few, 5 → many (CLDR); the catalogue below has one, few and other.
    speak({
      ui_lang: { message: 'pl' },
      import_will_approve_one: { message: '$N$ zatwierdzenie', placeholders: { n: { content: '$1' } } },
      import_will_approve_few: { message: '$N$ zatwierdzenia', placeholders: { n: { content: '$1' } } },
      import_will_approve_other: { message: '$N$ zatwierdzeń', placeholders: { n: { content: '$1' } } },
    });
    setUiLanguage(() => 'pl');
    expect(tn('import_will_approve', 1)).toBe('1 zatwierdzenie');
    expect(tn('import_will_approve', 3)).toBe('3 zatwierdzenia');
    expect(tn('import_will_approve', 5)).toBe('5 zatwierdzeń');
  });

  it('every counted message has its _one and _other form in every locale, with the count as its first placeholder', () => {
    for (const lang of ['en', 'de']) {
      const c = catalogue(lang);
      const bases = Object.keys(c)
        .filter((k) => k.endsWith('_other'))
        .map((k) => k.slice(0, -'_other'.length));
      expect(bases.length).toBeGreaterThan(20);
      for (const base of bases) {
        expect(c[`${base}_one`], `${lang} ${base}_one`).toBeDefined();
        for (const form of ['one', 'other']) {
          const entry = c[`${base}_${form}`];
          const first = Object.values(entry?.placeholders ?? {}).find((p) => p.content === '$1');
          expect(first, `${lang} ${base}_${form}: $1 is the count`).toBeDefined();
        }
      }
    }
  });
});
