// The context-menu model: "Copy skill context" on pages of an origin with usable
// approved skills (one item per such origin, shown by its own URL patterns, so no tab switch
// has to be heard to show or hide it), "Insert skill context" on editable fields of chat sites (the
// built-in ones and the user's Settings.chatSites) with one child per usable approved
// skill, and "Open all my skills beside the page" everywhere (the side panel). Item ids carry (origin, url) so a click is understood after the service worker
// restarted.
import { t } from '../i18n';
import { NAME_MAX, display } from '../render/display';
import type { ApprovedSkillSummary, HandOffKind } from '../messages';
import { CHAT_MATCH_PATTERNS } from '../chat/adapters';
import { chatSitePatterns } from '../chat/sites';
import { originPattern } from '../match-patterns';

export const COPY_MENU_ID = 'skillpin-copy';
export const INSERT_MENU_ID = 'skillpin-insert';
/** "Open all my skills beside the page": opens the side panel (it hands nothing out, so it is no hand-off path). */
export const LIBRARY_MENU_ID = 'skillpin-library';

/**
 * Where each kind of menu item hands a skill's content (hand-off-gate.ts): the copy item to the
 * clipboard, each insert item (a child of INSERT_MENU_ID) into the chat frame it was opened in.
 */
export const MENU_HAND_OFFS = { copy: 'clipboard', insert: 'chat' } as const satisfies Record<string, HandOffKind>;
export type MenuKind = keyof typeof MENU_HAND_OFFS;

export interface MenuModel {
  /**
   * "Copy skill context", one item per origin with usable approved skills, shown on that origin's
   * pages (documentUrlPatterns; patterns take no port, so other ports of the host show it too:
   * a click copies the skills of the page's own origin, events.ts).
   */
  copyItems: { id: string; title: string; patterns: string[] }[];
  /** Title of the "Insert skill context" parent item. */
  insertTitle: string;
  insertItems: { id: string; title: string }[];
  /** Title of the item that opens the side panel's library, on every page and on the toolbar button. */
  libraryTitle: string;
  /**
   * documentUrlPatterns of the insert menu: the built-in chat sites, then one
   * `scheme://host/*` per user chat site (ports are not part of match patterns).
   */
  insertPatterns: string[];
}

/** A copy item's id: the prefix COPY_MENU_ID, then the origin percent-encoded. */
export function copyItemId(origin: string): string {
  return `${COPY_MENU_ID}|${encodeURIComponent(origin)}`;
}

/** Whether a menu item id is a copy item's. */
export function isCopyItemId(id: string): boolean {
  return id === COPY_MENU_ID || id.startsWith(`${COPY_MENU_ID}|`);
}

/** An insert item's id: origin and URL percent-encoded, so no character of either can make one item name another skill. */
export function insertItemId(origin: string, url: string): string {
  return `${INSERT_MENU_ID}|${encodeURIComponent(origin)}|${encodeURIComponent(url)}`;
}

/** The (origin, url) an insert item id names, or null for any other id. */
export function parseInsertItemId(id: string): { origin: string; url: string } | null {
  const parts = id.split('|');
  if (parts.length !== 3 || parts[0] !== INSERT_MENU_ID) return null;
  try {
    const origin = decodeURIComponent(parts[1] ?? '');
    const url = decodeURIComponent(parts[2] ?? '');
    return origin !== '' && url !== '' ? { origin, url } : null;
  } catch {
    return null;
  }
}

export function menuModel(approved: ApprovedSkillSummary[], chatSites: readonly string[] = []): MenuModel {
  // A skill whose findings wait for the user's confirmation is not offered: the gate would refuse it.
  const usable = approved.filter((a) => a.usable && a.attention !== 'needs-confirmation');
  const perOrigin = new Map<string, number>();
  for (const a of usable) perOrigin.set(a.origin, (perOrigin.get(a.origin) ?? 0) + 1);
  const copyItems: MenuModel['copyItems'] = [];
  for (const [origin, count] of perOrigin) {
    const pattern = originPattern(origin);
    if (pattern) copyItems.push({ id: copyItemId(origin), title: count > 1 ? t('menu_copy_many', count) : t('menu_copy'), patterns: [pattern] });
  }
  return {
    copyItems,
    insertTitle: t('menu_insert'),
    insertItems: usable.map((a) => ({ id: insertItemId(a.origin, a.url), title: `${display(a.name, NAME_MAX)} — ${new URL(a.origin).host}` })),
    insertPatterns: [...CHAT_MATCH_PATTERNS, ...chatSitePatterns(chatSites)],
    libraryTitle: t('menu_library'),
  };
}
