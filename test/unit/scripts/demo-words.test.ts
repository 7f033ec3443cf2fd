// The demo's terminal steps name Skillpin's buttons as the browser shows them.
import { describe, expect, it } from 'vitest';
import { buttonLabel, buttonName, demoLanguage } from '../../../scripts/lib/demo-words.mjs';

describe('demo button words', () => {
  it('takes the language from DEMO_LANG, then the environment Chromium reads', () => {
    expect(demoLanguage({ DEMO_LANG: 'de' })).toBe('de');
    expect(demoLanguage({ LANG: 'de_DE.UTF-8' })).toBe('de');
    expect(demoLanguage({ LANGUAGE: 'de:en', LANG: 'en_US.UTF-8' })).toBe('de');
    expect(demoLanguage({ LANG: 'C.UTF-8' })).toBe('en');
    expect(demoLanguage({})).toBe('en');
  });

  it('names a button in English, or in German with the English name beside it', () => {
    expect(buttonName('approve', 'en')).toBe('"Approve"');
    expect(buttonName('approve', 'de')).toBe('„Freigeben“ ("Approve")');
    expect(buttonName('insert_into_chat', 'de')).toBe('„In den Chat einfügen“ ("Insert into chat")');
    expect(buttonLabel('insert_into_chat', 'de')).toBe('In den Chat einfügen');
    expect(buttonLabel('insert_into_chat', 'xx')).toBe('Insert into chat');
  });
});
