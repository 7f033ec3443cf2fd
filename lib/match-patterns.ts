// Host match patterns for the extension's site access (permissions.contains / request): the
// manifest's pair for every site, and the one pattern that grants a single origin. Match patterns
// take no port (Firefox refuses one; Chrome then means any port), so one origin's pattern covers
// every port of its host.

/** The host permissions the manifest asks for (wxt.config.ts): every http and https site. */
export const ALL_SITES_PATTERNS = ['http://*/*', 'https://*/*'];

/** The match pattern that grants one origin, or null for anything but http(s). */
export function originPattern(origin: string): string | null {
  try {
    const u = new URL(origin);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return `${u.protocol}//${u.hostname}/*`;
  } catch {
    return null;
  }
}
