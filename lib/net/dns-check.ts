// Where a name resolved: a public origin may not make us request a host whose name answers with a
// non-public address (DNS pointing at 127.0.0.1 or the local network), and mixed answers fail
// closed. Firefox asks before the request (dns.resolve); Chrome can only tell afterwards, from the
// address webRequest reports for each response (`details.ip`), and the bytes are then dropped
// (FORMATS.md §9.2). The same rule decides both.
import { classifyHost, isPublicOrigin } from './url-safety';
import { UNRESOLVED } from './request-guard';

export type ResolveHost = (host: string) => Promise<readonly string[]>;

function isAddressLiteral(host: string): boolean {
  return host.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}

/**
 * Whether the address `url`'s name resolves to decides if `origin` may have it requested. The
 * origin's own host is left to the name rules: the user's tab has just loaded it from wherever it
 * resolves, so the probe goes where the user went; the check protects the hosts the user never
 * asked for. Any request of a private origin, non-public names and address literals are decided by
 * the name alone (vetAddresses).
 */
export function needsAddressCheck(origin: string, url: URL): boolean {
  if (!isPublicOrigin(origin)) return false;
  const host = url.hostname;
  if (host === new URL(origin).hostname) return false;
  return classifyHost(host) === 'public' && !isAddressLiteral(host);
}

/**
 * The reason `url` may not be used for `origin` when its name resolved to `addresses` (null: not
 * known), or null. Codes: url-private-target, and UNRESOLVED when an address is needed and none is known.
 */
export function vetAddresses(origin: string, url: URL, addresses: readonly string[] | null): string | null {
  if (!isPublicOrigin(origin)) return null;
  const host = url.hostname;
  if (host === new URL(origin).hostname) return null;
  if (classifyHost(host) !== 'public') return 'url-private-target';
  if (isAddressLiteral(host)) return null;
  if (!addresses || addresses.length === 0) return UNRESOLVED;
  return addresses.every((a) => classifyHost(a) === 'public') ? null : 'url-private-target';
}

/** Firefox: the reason `url` may not be requested for `origin`, asking the resolver first; or null. */
export async function vetResolvedHost(origin: string, url: URL, resolve: ResolveHost): Promise<string | null> {
  if (!needsAddressCheck(origin, url)) return vetAddresses(origin, url, null);
  let addresses: readonly string[];
  try {
    addresses = await resolve(url.hostname);
  } catch {
    return UNRESOLVED;
  }
  return vetAddresses(origin, url, addresses);
}
