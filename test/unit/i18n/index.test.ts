// @vitest-environment happy-dom
// The message lookup: named placeholders, the browser API with English as the fallback, and the English catalogue's placeholders.
import { describe, expect, it } from 'vitest';
import { formatEntry, setMessageSource, t } from '../../../lib/i18n';
import english from '../../../public/_locales/en/messages.json';

setMessageSource(null);

describe('i18n', () => {
  it('fills named placeholders like the browser does', () => {
    expect(t('summary', 3, 2, 1)).toBe('3 skills · 2 usable · 1 approved');
    expect(formatEntry({ message: 'Cost $$5 for $WHO$', placeholders: { who: { content: '$1' } } }, ['me'])).toBe('Cost $5 for me');
  });
  it('uses the browser API when present and falls back to English when it answers nothing', () => {
    setMessageSource((name) => (name === 'recheck' ? 'Nochmal prüfen' : ''));
    expect(t('recheck')).toBe('Nochmal prüfen');
    expect(t('back')).toBe('Back to the list');
    setMessageSource(() => {
      throw new Error('no api');
    });
    expect(t('back')).toBe('Back to the list');
    setMessageSource(null);
  });
  it('keeps extName and extDescription, and every message has valid placeholders', () => {
    const cat = english as Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;
    expect(cat.extName?.message).toBe('Skillpin');
    expect(cat.extDescription?.message).toBeTruthy();
    for (const [k, v] of Object.entries(cat)) {
      expect(k).toMatch(/^[A-Za-z0-9_]+$/);
      for (const m of v.message.matchAll(/\$([A-Za-z0-9_]+)\$/g)) expect(v.placeholders?.[(m[1] ?? '').toLowerCase()], `${k} ${m[0]}`).toBeDefined();
    }
  });
});
