// One page of the pinned keys, sorted and filtered in the background (lib/background/handlers/keys.ts
// answers skillpin:pins-page with it): the options page asks for the rows it draws and never receives
// the whole list, so 1,000 or 10,000 pins cost it one page of rows. A contract the store, the
// background and the options page share (the store lists the pins in this order). Pure: no storage here.
import type { Pin } from './trust';

/** Rows in the first page, and added by each "Show more" (the options page's tables). */
export const LIST_PAGE_ROWS = 100;
/** Rows one request may ask for. */
export const PINS_PAGE_MAX = 1000;
/** Longest filter text accepted. */
export const PINS_FILTER_MAX = 1000;

export interface PinsPageRequest {
  offset: number;
  limit: number;
  /** As typed: trimmed and lowercased here; empty matches every pin. */
  filter: string;
}

export interface PinsPage {
  /** The rows from `offset`, at most `limit`, in origin order. */
  items: Pin[];
  offset: number;
  /** Pins matching the filter. */
  matching: number;
  /** Pins stored. */
  total: number;
}

/**
 * Origin order is code-unit order, the order IndexedDB keys the pins by (their key is the origin):
 * a page without a filter is then read through the key (TrustStore.pinsPage) in the same order a
 * filtered page is sorted in here.
 */
export function compareOrigins(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A filter text as pins are matched against it: trimmed and lowercased; empty matches everything. */
export function normalizeFilter(text: string): string {
  return text.trim().toLowerCase();
}

/**
 * A pin (or a key of the key history) matches a filter (normalized: trimmed, lowercase) by a part of
 * its origin or of its fingerprint; spaces are ignored for the fingerprint, so a copied grouped
 * fingerprint matches too.
 */
export function pinMatches(pin: Pick<Pin, 'origin' | 'fingerprint'>, filter: string): boolean {
  if (pin.origin.toLowerCase().includes(filter)) return true;
  const compact = filter.replace(/\s+/g, '');
  return compact !== '' && pin.fingerprint.toLowerCase().includes(compact);
}

/** The page of `pins` the request asks for, by origin, after the filter. */
export function pinsPage(pins: readonly Pin[], req: PinsPageRequest): PinsPage {
  const needle = normalizeFilter(req.filter);
  const matching = needle ? pins.filter((p) => pinMatches(p, needle)) : [...pins];
  matching.sort((a, b) => compareOrigins(a.origin, b.origin));
  const offset = Math.max(0, Math.min(req.offset, matching.length));
  const limit = pageLimit(req);
  return { items: matching.slice(offset, offset + limit), offset, matching: matching.length, total: pins.length };
}

/** The request's limit, capped as pinsPage caps it. */
export function pageLimit(req: PinsPageRequest): number {
  return Math.max(0, Math.min(req.limit, PINS_PAGE_MAX));
}
