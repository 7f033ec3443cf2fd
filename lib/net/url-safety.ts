// Where a URL points, and whether an origin may make us fetch it (FORMATS.md §9.3).
// Host classification works on the WHATWG-normalized hostname, so decimal, octal and
// hex IPv4 spellings and every IPv6 spelling land on one canonical form first.

/**
 * loopback: this machine; private: a private network (RFC 1918, unique local, shared
 * address space 100.64/10); link-local; local-domain: a name only a local resolver
 * answers (single label, .local, .lan, .internal, .home.arpa, .localdomain) or a public
 * wildcard-DNS name that resolves to whatever address it spells (nip.io, sslip.io, …);
 * reserved: multicast, documentation, benchmarking, broadcast and future-use ranges.
 */
export type HostClass = 'loopback' | 'private' | 'link-local' | 'local-domain' | 'reserved' | 'public';

export type UrlCheck = { ok: true } | { ok: false; code: string; message: string };

/** Characters that would make `http://<host>/` parse as something other than that host. */
const NOT_A_HOST = /[/\\?#@\s]/;

/** `text` (relative to `base`) as a URL without its fragment, or null when it is no URL. */
export function parseUrl(text: string, base?: URL): URL | null {
  try {
    const u = base ? new URL(text, base) : new URL(text);
    u.hash = '';
    return u;
  } catch {
    return null;
  }
}

function normalizeHost(hostname: string): string {
  let host = hostname.trim().toLowerCase();
  if (host === '' || NOT_A_HOST.test(host)) return host;
  if (host.includes(':') && !host.startsWith('[')) host = `[${host}]`;
  return parseUrl(`http://${host}/`)?.hostname ?? host;
}

/** IPv4 by the IANA special-purpose registry (RFC 6890 and its updates). */
function classifyV4(a: number, b: number, c = 0): HostClass {
  // 0.0.0.0/8 ("this host") reaches the local machine on common systems.
  if (a === 127 || a === 0) return 'loopback';
  if (a === 10) return 'private';
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // shared address space (carrier-grade NAT)
  if (a === 169 && b === 254) return 'link-local';
  if (a >= 224) return 'reserved'; // multicast 224/4, future use 240/4, broadcast
  if (a === 198 && (b === 18 || b === 19)) return 'reserved'; // benchmarking
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return 'reserved'; // protocol assignments, TEST-NET-1
  if (a === 192 && b === 88 && c === 99) return 'reserved'; // 6to4 relay anycast
  if (a === 198 && b === 51 && c === 100) return 'reserved'; // TEST-NET-2
  if (a === 203 && b === 0 && c === 113) return 'reserved'; // TEST-NET-3
  return 'public';
}

/** The IPv4 address carried in two 16-bit groups. */
function v4Of(hi: number, lo: number): HostClass {
  return classifyV4(hi >> 8, hi & 0xff, lo >> 8);
}

function parseV4(text: string): [number, number, number, number] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)) return null;
  const [a = 0, b = 0, c = 0, d = 0] = parts.map(Number);
  return [a, b, c, d];
}

/** Parses IPv6 text (without brackets) into eight 16-bit groups, or null. */
function parseV6(text: string): number[] | null {
  let body = text;
  const tail: number[] = [];
  const lastColon = body.lastIndexOf(':');
  if (lastColon >= 0 && body.slice(lastColon + 1).includes('.')) {
    const v4 = parseV4(body.slice(lastColon + 1));
    if (!v4) return null;
    tail.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    body = body.slice(0, lastColon + 1);
    if (body.endsWith(':') && !body.endsWith('::')) body = body.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const readGroups = (s: string): number[] | null => {
    if (s === '') return [];
    const groups = s.split(':');
    return groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g)) ? groups.map((g) => parseInt(g, 16)) : null;
  };
  const head = readGroups(halves[0] ?? '');
  if (!head) return null;
  if (halves.length === 1) {
    const all = [...head, ...tail];
    return all.length === 8 ? all : null;
  }
  const rest = readGroups(halves[1] ?? '');
  if (!rest) return null;
  const fill = 8 - head.length - rest.length - tail.length;
  if (fill < 1) return null;
  return [...head, ...new Array<number>(fill).fill(0), ...rest, ...tail];
}

function classifyV6(g: number[]): HostClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const firstFourZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  const firstFiveZero = firstFourZero && g4 === 0;
  if (firstFiveZero && g5 === 0 && g6 === 0 && (g7 === 0 || g7 === 1)) return 'loopback'; // ::, ::1
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible form (::a.b.c.d).
  if (firstFiveZero && (g5 === 0xffff || g5 === 0)) return v4Of(g6, g7);
  // IPv4-translated (::ffff:0:a.b.c.d, RFC 2765).
  if (firstFourZero && g4 === 0xffff && g5 === 0) return v4Of(g6, g7);
  // NAT64: the well-known prefix 64:ff9b::/96 carries an IPv4 address; 64:ff9b:1::/48 is local use.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'private';
  // 6to4 (2002::/16) carries an IPv4 address in groups 1–2; Teredo (2001::/32) the client's, inverted, in 6–7.
  if (g0 === 0x2002) return v4Of(g1, g2);
  if (g0 === 0x2001 && g1 === 0) return v4Of(~g6 & 0xffff, ~g7 & 0xffff);
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // fec0::/10, deprecated site-local
  if ((g0 & 0xff00) === 0xff00) return 'reserved'; // multicast
  if (g0 === 0x2001 && g1 === 0x0db8) return 'reserved'; // documentation
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return 'reserved'; // discard-only 100::/64
  return 'public';
}

/** Names only a local resolver answers. */
export const LOCAL_SUFFIXES = ['local', 'lan', 'internal', 'home.arpa', 'localdomain'];
/** Public wildcard-DNS names that resolve to loopback, or to whatever address the name spells. */
export const LOOPBACK_NAMES = ['localtest.me', 'lvh.me', 'vcap.me', 'localhost.direct', 'lacolhost.com'];
export const ADDRESS_NAMES = ['nip.io', 'sslip.io', 'xip.io', 'traefik.me', 'nip.direct'];

function under(host: string, suffix: string): boolean {
  return host === suffix || host.endsWith(`.${suffix}`);
}

/** Classifies a hostname (as `URL.hostname` gives it; IPv6 with or without brackets). */
export function classifyHost(hostname: string): HostClass {
  let host = normalizeHost(hostname);
  if (host.startsWith('[') && host.endsWith(']')) {
    const groups = parseV6(host.slice(1, -1));
    return groups ? classifyV6(groups) : 'public';
  }
  while (host.endsWith('.')) host = host.slice(0, -1);
  const v4 = parseV4(host);
  if (v4) return classifyV4(v4[0], v4[1], v4[2]);
  if (under(host, 'localhost') || LOOPBACK_NAMES.some((n) => under(host, n))) return 'loopback';
  // A single label (router, nas) is completed by the local resolver's search domains.
  if (!host.includes('.')) return host === '' ? 'public' : 'local-domain';
  if (LOCAL_SUFFIXES.some((s) => under(host, s)) || ADDRESS_NAMES.some((n) => under(host, n))) return 'local-domain';
  return 'public';
}

/** True when the origin's host is public. An unparseable origin is not public. */
export function isPublicOrigin(origin: string): boolean {
  const parsed = parseUrl(origin);
  if (!parsed) return false;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  return classifyHost(parsed.hostname) === 'public';
}

function fail(code: string, message: string): UrlCheck {
  return { ok: false, code, message };
}

/**
 * May `origin` make us fetch `url` as an artifact (or as one redirect hop of it)?
 * Codes: url-scheme, url-credentials, url-origin, url-downgrade, url-private-target.
 */
export function checkArtifactUrl(origin: string, url: URL): UrlCheck {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return fail('url-scheme', `The scheme "${url.protocol}" is not allowed for a skill; only https: (or http: on an http: origin).`);
  }
  if (url.username !== '' || url.password !== '') {
    return fail('url-credentials', 'A skill URL may not carry a user name or password.');
  }
  const from = parseUrl(origin);
  if (!from) return fail('url-origin', `The origin "${origin}" is not a valid URL.`);
  if (from.protocol !== 'https:' && from.protocol !== 'http:') {
    return fail('url-origin', `The origin "${origin}" is not an http(s) origin.`);
  }
  if (url.protocol === 'http:' && from.protocol !== 'http:') {
    return fail('url-downgrade', 'An https: origin may not list a skill over plain http:.');
  }
  if (classifyHost(from.hostname) === 'public') {
    const target = classifyHost(url.hostname);
    if (target !== 'public') {
      return fail('url-private-target', `A public origin may not point at a ${target} host (${url.hostname}).`);
    }
  }
  return { ok: true };
}
