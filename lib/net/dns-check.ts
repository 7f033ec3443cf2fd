// Where a name resolves, for the browsers that can tell (Firefox's dns.resolve): a public
// origin may not make us request a host whose name answers with a non-public address
// (DNS pointing at 127.0.0.1 or the local network), and mixed answers fail closed.
import { classifyHost, isPublicOrigin } from './url-safety';
import { UNRESOLVED } from './request-guard';

export type ResolveHost = (host: string) => Promise<readonly string[]>;

function isAddressLiteral(host: string): boolean {
  return host.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}

/**
 * The reason `url` may not be requested for `origin`, or null. The origin's own host is left to
 * the name rules: the user's tab has just loaded it from wherever it resolves, so the probe goes
 * where the user went; the check protects the hosts the user never asked for.
 */
export async function vetResolvedHost(origin: string, url: URL, resolve: ResolveHost): Promise<string | null> {
  if (!isPublicOrigin(origin)) return null;
  const host = url.hostname;
  if (host === new URL(origin).hostname) return null;
  if (classifyHost(host) !== 'public') return 'url-private-target';
  if (isAddressLiteral(host)) return null;
  let addresses: readonly string[];
  try {
    addresses = await resolve(host);
  } catch {
    return UNRESOLVED;
  }
  if (addresses.length === 0) return UNRESOLVED;
  return addresses.every((a) => classifyHost(a) === 'public') ? null : 'url-private-target';
}
