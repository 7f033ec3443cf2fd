// The user's own chat sites (Settings.chatSites): exact http(s) origins such as a
// self-hosted chat UI on http://localhost:3000. Pure functions shared by the settings
// reader, the message validator, the options form, the popup and the context menu.
import { httpOrigin, isHttpOrigin } from '../origin';
import { adapterForHost } from './adapters';

/** At most this many user chat sites are kept (the list feeds menu patterns). */
export const MAX_CHAT_SITES = 100;

const PATTERN_HOST = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/**
 * Match patterns (`scheme://host/*`) for the user's chat sites, in list order, without
 * duplicates. The port is left out: Firefox refuses ports in match patterns (Firefox bug 1362809,
 * https://developer.mozilla.org/docs/Mozilla/Add-ons/WebExtensions/Match_patterns) and Chrome
 * treats a missing port as any port, so a pattern covers every port of that host (the
 * popup, which compares exact origins, is the port-exact path). Origins whose host cannot
 * be written as a pattern (IPv6 literals) are skipped rather than risk an invalid menu.
 */
export function chatSitePatterns(origins: readonly unknown[]): string[] {
  const urls = origins.filter((origin) => isHttpOrigin(origin)).map((origin) => new URL(origin));
  const patterns = urls.filter((u) => PATTERN_HOST.test(u.hostname)).map((u) => `${u.protocol}//${u.hostname}/*`);
  return [...new Set(patterns)];
}

const isBuiltInHost = (hostname: string): boolean => adapterForHost(hostname) !== null;

/**
 * The origin of `url` when it is a chat site: an https page of a host a built-in adapter
 * knows (`isKnownHost`), or exactly (scheme, host and port) one of the user's chat sites.
 * Null otherwise. The popup asks this to offer a chat tab, the background right before it
 * inserts.
 */
export function chatSiteOrigin(url: unknown, chatSites: readonly unknown[], isKnownHost: (hostname: string) => boolean = isBuiltInHost): string | null {
  const origin = httpOrigin(url);
  if (origin === null) return null;
  if (origin.startsWith('https:') && isKnownHost(new URL(origin).hostname)) return origin;
  return chatSites.some((site) => httpOrigin(site) === origin) ? origin : null;
}
