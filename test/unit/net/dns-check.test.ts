// Where a name resolved (lib/net/dns-check.ts): a public origin may not make us request a host
// whose name answers with a non-public address; mixed answers fail closed. Firefox asks its
// resolver first (vetResolvedHost); Chrome judges the address a response came from (vetAddresses).
import { describe, expect, it } from 'vitest';
import { needsAddressCheck, vetAddresses, vetResolvedHost } from '../../../lib/net/dns-check';
import { UNRESOLVED } from '../../../lib/net/request-guard';

const answers: Record<string, string[]> = {
  'cdn.example.com': ['93.184.216.34'],
  'rebind.example.com': ['127.0.0.1'],
  'mixed.example.com': ['93.184.216.34', '192.168.1.10'],
  'v6.example.com': ['::1'],
  'empty.example.com': [],
};
const resolve = async (host: string): Promise<string[]> => {
  const a = answers[host];
  if (!a) throw new Error('NXDOMAIN');
  return a;
};
const vet = (origin: string, url: string): Promise<string | null> => vetResolvedHost(origin, new URL(url), resolve);

describe('vetResolvedHost', () => {
  it('a public name with public answers passes', async () => {
    expect(await vet('https://pub.example', 'https://cdn.example.com/s.md')).toBeNull();
  });
  it('a public name answering loopback, a mixed answer and an IPv6 loopback answer are refused', async () => {
    expect(await vet('https://pub.example', 'https://rebind.example.com/s.md')).toBe('url-private-target');
    expect(await vet('https://pub.example', 'https://mixed.example.com/s.md')).toBe('url-private-target');
    expect(await vet('https://pub.example', 'https://v6.example.com/s.md')).toBe('url-private-target');
  });
  it('no answer or a failed lookup is unresolved (fails closed, retried later)', async () => {
    expect(await vet('https://pub.example', 'https://empty.example.com/s.md')).toBe(UNRESOLVED);
    expect(await vet('https://pub.example', 'https://nx.example.com/s.md')).toBe(UNRESOLVED);
  });
  it("the origin's own host and any request of a private origin are left to the name rules", async () => {
    expect(await vet('https://rebind.example.com', 'https://rebind.example.com/llms.txt')).toBeNull();
    expect(await vet('http://127.0.0.1:8080', 'https://rebind.example.com/s.md')).toBeNull();
  });
  it('a non-public name from a public origin is refused without a lookup', async () => {
    expect(await vet('https://pub.example', 'https://nas.local/s.md')).toBe('url-private-target');
  });
});

describe('vetAddresses (Chrome: the address webRequest reports)', () => {
  const va = (origin: string, url: string, addresses: string[] | null): string | null => vetAddresses(origin, new URL(url), addresses);
  it('the same verdicts as the lookup, for every answer of the table above', async () => {
    for (const [host, a] of Object.entries(answers)) {
      const url = `https://${host}/s.md`;
      expect(va('https://pub.example', url, a), host).toBe(await vet('https://pub.example', url));
    }
  });
  it('IPv6 as Chrome spells it (no brackets), mapped and unique-local addresses', () => {
    expect(va('https://pub.example', 'https://cdn.example.com/s', ['::1'])).toBe('url-private-target');
    expect(va('https://pub.example', 'https://cdn.example.com/s', ['::ffff:10.0.0.1'])).toBe('url-private-target');
    expect(va('https://pub.example', 'https://cdn.example.com/s', ['fd12::1'])).toBe('url-private-target');
    expect(va('https://pub.example', 'https://cdn.example.com/s', ['2606:4700::1111'])).toBeNull();
  });
  it('no address known is unresolved when one is needed, and irrelevant when not', () => {
    expect(va('https://pub.example', 'https://cdn.example.com/s', null)).toBe(UNRESOLVED);
    expect(va('https://pub.example', 'https://pub.example/s', null)).toBeNull();
    expect(va('http://127.0.0.1:8080', 'https://cdn.example.com/s', null)).toBeNull();
    expect(va('https://pub.example', 'https://8.8.8.8/s', null)).toBeNull();
    expect(va('https://pub.example', 'https://db.internal/s', null)).toBe('url-private-target');
  });
  it('an address is needed only for another public name seen from a public origin', () => {
    const need = (origin: string, url: string): boolean => needsAddressCheck(origin, new URL(url));
    expect(need('https://pub.example', 'https://cdn.example.com/s')).toBe(true);
    expect(need('https://pub.example', 'https://pub.example/s')).toBe(false);
    expect(need('https://pub.example', 'https://8.8.8.8/s')).toBe(false);
    expect(need('https://pub.example', 'https://[2606:4700::1111]/s')).toBe(false);
    expect(need('https://pub.example', 'https://nas.local/s')).toBe(false);
    expect(need('http://intranet:8080', 'https://cdn.example.com/s')).toBe(false);
  });
});
