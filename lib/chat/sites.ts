// The user's own chat sites (Settings.chatSites): exact http(s) origins such as a
// self-hosted chat UI on http://localhost:3000. Pure functions shared by the settings
// reader, the message validator, the options form, the popup and the context menu.

/** At most this many user chat sites are kept (the list feeds menu patterns). */
export const MAX_CHAT_SITES = 100;

/** True for an exact http(s) origin: `scheme://host[:port]` exactly as URL.origin spells it. */
export function isHttpOrigin(v: unknown): v is string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 2048) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v;
  } catch {
    return false;
  }
}

/** A valid Settings.chatSites value: at most MAX_CHAT_SITES exact http(s) origins. */
export function isChatSiteList(v: unknown): v is string[] {
  return Array.isArray(v) && v.length <= MAX_CHAT_SITES && v.every(isHttpOrigin);
}
