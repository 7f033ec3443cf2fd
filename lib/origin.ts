// What an origin is, in one place (the ground floor of lib/, ARCHITECTURE.md §4): an http(s)
// origin exactly as URL.origin spells it, `scheme://host[:port]`. Every module that takes an
// origin from a URL, checks one in a message or a setting, or reads one from a line a person
// wrote asks here.

/** Whether a parsed URL is http or https (the only schemes Skillpin reads or names). */
export function isHttpUrl(u: URL): boolean {
  return u.protocol === 'http:' || u.protocol === 'https:';
}

/** True for an exact http(s) origin: `scheme://host[:port]` exactly as URL.origin spells it, at most 2,048 characters. */
export function isHttpOrigin(v: unknown): v is string {
  return typeof v === 'string' && v.length <= 2048 && httpOrigin(v) === v;
}

/** `text` parsed as an absolute URL, or null when it is none. */
export function urlOf(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** The origin of an http(s) URL (any path), or null for anything else. */
export function httpOrigin(url: unknown): string | null {
  if (typeof url !== 'string' || url === '') return null;
  const u = urlOf(url);
  return u !== null && isHttpUrl(u) ? u.origin : null;
}

/**
 * The origin a line written by a person names (an options-page list, a policy's key list): the
 * trimmed text as an http(s) URL with no user name or password. Its path is dropped, unless
 * `bare`: then anything after the origin but a single '/' makes it no origin.
 */
export function originOfEntry(text: string, opts: { bare?: boolean } = {}): string | null {
  const u = urlOf(text.trim());
  if (u === null || !isHttpUrl(u) || u.username || u.password) return null;
  if (opts.bare && (u.pathname !== '/' || u.search || u.hash)) return null;
  return u.origin;
}
