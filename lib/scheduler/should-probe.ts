// Whether a navigation may be probed at all (PRODUCT.md §2.1, FORMATS.md §9.1): only top-level
// http(s) pages, not while paused, not in private windows unless allowed, never a deny-listed
// site, and only allow-listed sites when the user asked for that. Knows nothing about formats.
import { httpOrigin, isHttpUrl, urlOf } from '../origin';
import type { Settings } from '../types';

export type SkipReason = 'not-http' | 'paused' | 'private-window' | 'deny-listed' | 'not-allow-listed';

export type ProbeDecision = { probe: true; origin: string } | { probe: false; reason: SkipReason };

/** One allow/deny list entry, parsed. */
export type ListEntry =
  /** `https://a.example` (any path in the entry is ignored): that exact origin. */
  | { kind: 'origin'; origin: string }
  /** `a.example` or `a.example:8080`: that host on any scheme (and any port unless given). */
  | { kind: 'host'; host: string; port: string | null }
  /** `*.example`: the apex and every subdomain. */
  | { kind: 'wildcard'; suffix: string };

function stripDots(host: string): string {
  return host.replace(/\.+$/, '');
}

function parseHost(text: string): { host: string; port: string | null } | null {
  const t = text.endsWith('/') ? text.slice(0, -1) : text;
  if (t === '' || /[/\\?#@\s]/.test(t)) return null;
  try {
    const u = new URL(`http://${t}/`);
    const host = stripDots(u.hostname);
    // URL drops a port equal to the scheme default (80 here), so read the written one.
    const written = /:(\d+)$/.exec(t);
    const port = written ? String(Number(written[1])) : null;
    return host === '' ? null : { host, port };
  } catch {
    return null;
  }
}

/** Parses a list entry; null when it can never match anything (it is then ignored). */
export function parseListEntry(entry: string): ListEntry | null {
  const e = entry.trim().toLowerCase();
  if (e === '') return null;
  if (e.includes('://')) {
    const origin = httpOrigin(e);
    return origin === null ? null : { kind: 'origin', origin };
  }
  if (e.startsWith('*.')) {
    const parsed = parseHost(e.slice(2));
    return parsed && parsed.port === null ? { kind: 'wildcard', suffix: parsed.host } : null;
  }
  const parsed = parseHost(e);
  return parsed ? { kind: 'host', host: parsed.host, port: parsed.port } : null;
}

function effectivePort(u: URL): string {
  return u.port || (u.protocol === 'https:' ? '443' : '80');
}

function entryMatches(entry: ListEntry, u: URL): boolean {
  const host = stripDots(u.hostname);
  switch (entry.kind) {
    case 'origin':
      return entry.origin === u.origin;
    case 'host':
      return entry.host === host && (entry.port === null || entry.port === effectivePort(u));
    case 'wildcard':
      return host === entry.suffix || host.endsWith('.' + entry.suffix);
  }
}

/** True when any entry of the list matches the URL's origin. Malformed entries are ignored. */
export function listMatches(list: readonly unknown[] | null | undefined, u: URL): boolean {
  if (!Array.isArray(list)) return false;
  return list.some((raw) => {
    const entry = typeof raw === 'string' ? parseListEntry(raw) : null;
    return entry !== null && entryMatches(entry, u);
  });
}

/** Decides whether the page at `url` may be probed, and for which origin. Deny wins over allow. */
export function shouldProbe(url: string, settings: Settings, ctx: { incognito: boolean }): ProbeDecision {
  const u = urlOf(url);
  if (u === null || !isHttpUrl(u)) return { probe: false, reason: 'not-http' };
  if (settings.paused) return { probe: false, reason: 'paused' };
  if (ctx.incognito && !settings.probeInPrivate) return { probe: false, reason: 'private-window' };
  if (listMatches(settings.denyList, u)) return { probe: false, reason: 'deny-listed' };
  if (settings.allowListOnly && !listMatches(settings.allowList, u)) return { probe: false, reason: 'not-allow-listed' };
  return { probe: true, origin: u.origin };
}
