// The context-menu model: "Copy skill context" on pages of an origin with usable
// approved skills, "Insert skill context" on editable fields of chat sites (the
// built-in ones and the user's Settings.chatSites) with one child per usable approved
// skill, and "Open all my skills beside the page" everywhere (the side panel). Item ids carry (origin, url) so a click is understood after the service worker
// restarted.
import { t } from '../i18n';
import { NAME_MAX, display } from '../text/display';
import type { ApprovedSkillSummary, HandOffKind } from '../messages';
import { CHAT_MATCH_PATTERNS } from '../chat/adapters';
import { chatSitePatterns } from '../chat/sites';

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
  copyVisible: boolean;
  copyTitle: string;
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

export function menuModel(approved: ApprovedSkillSummary[], activeOrigin: string | null, chatSites: readonly string[] = []): MenuModel {
  const usable = approved.filter((a) => a.usable);
  const here = activeOrigin ? usable.filter((a) => a.origin === activeOrigin) : [];
  return {
    copyVisible: here.length > 0,
    copyTitle: here.length > 1 ? t('menu_copy_many', here.length) : t('menu_copy'),
    insertTitle: t('menu_insert'),
    insertItems: usable.map((a) => ({ id: insertItemId(a.origin, a.url), title: `${display(a.name, NAME_MAX)} — ${new URL(a.origin).host}` })),
    insertPatterns: [...CHAT_MATCH_PATTERNS, ...chatSitePatterns(chatSites)],
    libraryTitle: t('menu_library'),
  };
}
