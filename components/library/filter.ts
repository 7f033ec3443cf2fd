// The side panel's library: the approved skills grouped by site and filtered by what the user
// types. A query matches a skill when every word of it is found in the skill's name,
// description or site (case-insensitive, diacritics kept: "über" is not "uber"). The text each
// skill is matched against is made once per list, so a keystroke only scans strings.
import type { ApprovedSkillSummary } from '../../lib/messages';
import { hostOf } from '../shared/format';

export interface LibraryEntry {
  item: ApprovedSkillSummary;
  /** The site as the panel shows it (the host, with its port). */
  host: string;
  /** Name, description, host and origin, lowercased: what a query is matched against. */
  haystack: string;
}

export interface LibraryGroup {
  origin: string;
  host: string;
  entries: LibraryEntry[];
}

/** The entries of a list, in its order (the background sorts it by site, then name). */
export function libraryIndex(items: readonly ApprovedSkillSummary[]): LibraryEntry[] {
  return items.map((item) => {
    const host = hostOf(item.origin);
    return { item, host, haystack: [item.name, item.description ?? '', host, item.origin].join('\n').toLowerCase() };
  });
}

/** The words of a query: trimmed, lowercased, split on white space; none matches everything. */
export function queryWords(query: string): string[] {
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
}

/** The entries every word of `query` is found in, in list order. */
export function filterEntries(entries: readonly LibraryEntry[], query: string): LibraryEntry[] {
  const words = queryWords(query);
  return entries.filter((e) => words.every((w) => e.haystack.includes(w)));
}

/** Consecutive entries of one site as one group (the list is sorted by site). */
export function groupBySite(entries: readonly LibraryEntry[]): LibraryGroup[] {
  const groups: LibraryGroup[] = [];
  for (const entry of entries) {
    const last = groups[groups.length - 1];
    if (last && last.origin === entry.item.origin) last.entries.push(entry);
    else groups.push({ origin: entry.item.origin, host: entry.host, entries: [entry] });
  }
  return groups;
}
