// Counted messages. The extension's i18n API has no plural rules, so a counted message is a
// family of catalogue keys, `<base>_one` and `<base>_other` (and any other CLDR category a
// language needs, e.g. `<base>_few`), and Intl.PluralRules of the catalogue's language picks one.
// The count is always the first substitution, formatted for the browser's language.
import { t, type MessageKey } from './index';
import { cached, catalogueLanguage, formatNumber } from './format';

/** The base names of the counted messages: every key `<base>_other` in the catalogue. */
export type PluralBase = { [K in MessageKey]: K extends `${infer B}_other` ? B : never }[MessageKey];

/** The catalogue key for `n` of `base` in the catalogue's language: `<base>_<category>`, else `<base>_other`. */
export function pluralKey(base: PluralBase, n: number): MessageKey {
  const category = cached('plural', (l) => new Intl.PluralRules(l), catalogueLanguage()).select(n);
  const key = `${base}_${category}` as MessageKey;
  // t() answers a key the catalogue (its English fallback included) does not have with the key itself.
  return t(key) !== key ? key : (`${base}_other` as MessageKey);
}

/** `n` of something, in words: "1 approval", "3 approvals"; `subs` follow the count. */
export function tn(base: PluralBase, n: number, ...subs: (string | number)[]): string {
  return t(pluralKey(base, n), formatNumber(n), ...subs);
}
