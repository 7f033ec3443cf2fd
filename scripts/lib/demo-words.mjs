// @ts-check
// The words the demo's terminal steps use for Skillpin's buttons: the ones the browser shows.
// A browser in German shows "Freigeben", not "Approve"; the steps name the button as shown, with
// the English name beside it for a reader who follows along in English.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCALES = join(import.meta.dirname, '../../public/_locales');

/**
 * The browser's UI language as the demo starts it: DEMO_LANG, else the language of the
 * environment Chromium reads (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English.
 * @param {Record<string, string | undefined>} env
 */
export function demoLanguage(env) {
  if (env.DEMO_LANG) return env.DEMO_LANG.toLowerCase().split(/[-_]/)[0] ?? 'en';
  for (const name of ['LANGUAGE', 'LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = env[name];
    if (!value || value === 'C' || value.startsWith('C.') || value === 'POSIX') continue;
    const lang = value.split(':')[0]?.toLowerCase().split(/[-_.]/)[0];
    if (lang) return lang;
  }
  return 'en';
}

/** @param {string} lang @returns {Record<string, { message: string }>} */
function catalogue(lang) {
  try {
    return JSON.parse(readFileSync(join(LOCALES, lang, 'messages.json'), 'utf8'));
  } catch {
    return {};
  }
}

/**
 * A button's name for the terminal steps, quoted: in English `"Approve"`; in another language the
 * browser has a catalogue for, its name there with the English one beside it: `„Freigeben“ ("Approve")`.
 * @param {string} key a message key of the button (public/_locales/en/messages.json)
 * @param {string} lang
 */
export function buttonName(key, lang) {
  const english = catalogue('en')[key]?.message;
  if (english === undefined) throw new Error(`no message ${key}`);
  const local = lang === 'en' ? undefined : catalogue(lang)[key]?.message;
  if (!local || local === english) return `"${english}"`;
  return lang === 'de' ? `„${local}“ ("${english}")` : `"${local}" ("${english}")`;
}

/**
 * A button's label exactly as the browser shows it (for the headless walk's locators).
 * @param {string} key @param {string} lang
 */
export function buttonLabel(key, lang) {
  return catalogue(lang)[key]?.message ?? catalogue('en')[key]?.message ?? key;
}
