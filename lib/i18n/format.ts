// Numbers and dates for people, through Intl in the browser's language (the extension's i18n
// API names it; without one, the language of the catalogue the text comes from). One formatter
// per language and style, built once: Intl constructors are slow next to a format call.
import { t } from './index';

type UiLanguage = () => string;

let override: UiLanguage | null = null;
let zone: string | undefined;

/** Replace the browser's language and time zone (tests); null and undefined: the browser's own. */
export function setUiLanguage(fn: UiLanguage | null, timeZone?: string): void {
  override = fn;
  zone = timeZone;
  cache.clear();
  asked = undefined;
}

/** The browser's language as its API said it, asked once per page: it changes only with a restart of the browser. */
let asked: string | null | undefined;
function apiLanguage(): string | null {
  if (asked === undefined) asked = askApiLanguage();
  return asked;
}

function askApiLanguage(): string | null {
  const g = globalThis as unknown as Record<string, { i18n?: { getUILanguage?: () => unknown } } | undefined>;
  for (const ns of ['browser', 'chrome']) {
    const fn = g[ns]?.i18n?.getUILanguage;
    if (typeof fn !== 'function') continue;
    try {
      const lang = fn.call(g[ns]?.i18n);
      if (typeof lang === 'string' && lang) return lang;
    } catch {
      // fall through
    }
  }
  return null;
}

/** The language of the catalogue the words come from ("en", "de"): plural rules follow it. */
export function catalogueLanguage(): string {
  return t('ui_lang');
}

/** The browser's language ("de-DE"), for numbers and dates; the catalogue's when the browser does not say. */
export function uiLanguage(): string {
  return override?.() ?? apiLanguage() ?? catalogueLanguage();
}

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>();

/** The formatter `name` for `lang` (the browser's language by default), built once; English when the language is unknown. */
export function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>(name: string, make: (lang: string) => T, lang = uiLanguage()): T {
  const key = `${name} ${lang}`;
  let f = cache.get(key) as T | undefined;
  if (!f) {
    try {
      f = make(lang);
    } catch {
      f = make('en');
    }
    cache.set(key, f);
  }
  return f;
}

export function formatNumber(n: number): string {
  return cached('number', (l) => new Intl.NumberFormat(l)).format(n);
}

/** A size for people: bytes below 1 KB, else kilobytes or megabytes with one decimal ("3.2 kB"). */
export function formatSize(bytes: number): string | null {
  if (bytes < 1000) return null;
  const mb = bytes >= 1_000_000;
  const unit = mb ? 'megabyte' : 'kilobyte';
  const value = mb ? bytes / 1_000_000 : bytes / 1000;
  const formatted = cached(unit, (l) => new Intl.NumberFormat(l, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 })).format(value);
  // Number and unit on one line.
  return formatted.replace(/\s/g, '\u00a0');
}

/** Date and time in the browser's language and time zone ("12 Mar 2025, 14:05"). */
export function formatDateTime(ms: number): string {
  return cached('datetime', (l) => new Intl.DateTimeFormat(l, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone })).format(ms);
}
