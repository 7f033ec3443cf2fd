// A small translation helper over the extension's i18n API. Pages call t(); when
// the API is missing (unit tests) or has no entry, the English catalogue is used,
// with the same placeholder rules as the browser ($NAME$ → $1 → substitution).
// The attribute lets node load this module as ESM (the end-to-end suites import lib/background).
import english from '../../public/_locales/en/messages.json' with { type: 'json' };

export type MessageKey = keyof typeof english;

interface CatalogueEntry {
  message: string;
  placeholders?: Record<string, { content: string }>;
}

type GetMessage = (name: string, substitutions?: string[]) => string;

let source: GetMessage | null | undefined;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** Finds browser.i18n.getMessage (or chrome.i18n.getMessage) when running in an extension page. */
function detectSource(): GetMessage | null {
  const g: Record<string, unknown> = globalThis as unknown as Record<string, unknown>;
  for (const ns of ['browser', 'chrome']) {
    const api = g[ns];
    const i18n = isRecord(api) ? api.i18n : undefined;
    if (!isRecord(i18n) || typeof i18n.getMessage !== 'function') continue;
    const fn = i18n.getMessage as (name: string, subs?: string[]) => unknown;
    return (name, subs) => {
      const out = fn.call(i18n, name, subs);
      return typeof out === 'string' ? out : '';
    };
  }
  return null;
}

/** Replace the message source (tests); pass null for the English catalogue only, undefined to detect again. */
export function setMessageSource(fn: GetMessage | null | undefined): void {
  source = fn;
}

function catalogueEntry(key: string): CatalogueEntry | null {
  const entry: unknown = (english as Record<string, unknown>)[key];
  if (!isRecord(entry) || typeof entry.message !== 'string') return null;
  return entry as unknown as CatalogueEntry;
}

/** Formats a catalogue entry the way browsers do. */
export function formatEntry(entry: CatalogueEntry, subs: string[]): string {
  const placeholders: Record<string, string> = {};
  for (const [name, ph] of Object.entries(entry.placeholders ?? {})) placeholders[name.toLowerCase()] = ph.content;
  const expand = (content: string): string => content.replace(/\$(\d)/g, (_m, d: string) => subs[Number(d) - 1] ?? '');
  return entry.message.replace(/\$\$|\$([A-Za-z0-9_@]+)\$/g, (m, name: string | undefined) => {
    if (m === '$$') return '$';
    const content = name === undefined ? undefined : placeholders[name.toLowerCase()];
    return content === undefined ? m : expand(content);
  });
}

/** The message `key` in the user's language, English when unavailable. */
export function t(key: MessageKey, ...subs: (string | number)[]): string {
  const strings = subs.map(String);
  if (source === undefined) source = detectSource();
  if (source) {
    try {
      const out = source(key, strings);
      if (out) return out;
    } catch {
      // fall through to English
    }
  }
  const entry = catalogueEntry(key);
  return entry ? formatEntry(entry, strings) : key;
}
