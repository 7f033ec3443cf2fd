import { describe, expect, it } from 'vitest';
import { listMatches, parseListEntry, shouldProbe } from '../../../lib/scheduler/should-probe';
import { DEFAULT_SETTINGS, type Settings } from '../../../lib/types';

const settings = (over: Partial<Settings> = {}): Settings => ({ ...DEFAULT_SETTINGS, ...over });
const normal = { incognito: false };
const reason = (url: string, s: Settings = settings(), ctx = normal): string => {
  const d = shouldProbe(url, s, ctx);
  return d.probe ? `probe ${d.origin}` : d.reason;
};

describe('shouldProbe: what may be probed', () => {
  it('probes http and https pages and names their origin', () => {
    expect(reason('https://docs.example.com/guide/intro?x=1#top')).toBe('probe https://docs.example.com');
    expect(reason('http://127.0.0.1:8080/')).toBe('probe http://127.0.0.1:8080');
    expect(reason('https://EXAMPLE.com:443/')).toBe('probe https://example.com');
    expect(reason('http://[::1]:3000/x')).toBe('probe http://[::1]:3000');
  });

  it('skips everything that is not http(s)', () => {
    for (const url of ['file:///home/a.html', 'chrome://settings', 'about:blank', 'data:text/html,x', 'moz-extension://x/popup.html', 'ftp://a.example/', 'not a url', '']) {
      expect(reason(url), url).toBe('not-http');
    }
  });

  it('skips while paused', () => {
    expect(reason('https://a.example/', settings({ paused: true }))).toBe('paused');
  });

  it('skips private windows unless enabled', () => {
    expect(reason('https://a.example/', settings(), { incognito: true })).toBe('private-window');
    expect(reason('https://a.example/', settings({ probeInPrivate: true }), { incognito: true })).toBe('probe https://a.example');
  });

  it('checks in a fixed order: scheme, pause, private window, deny, allow', () => {
    const all = settings({ paused: true, denyList: ['a.example'], allowListOnly: true });
    expect(reason('file:///x', all, { incognito: true })).toBe('not-http');
    expect(reason('https://a.example/', all, { incognito: true })).toBe('paused');
    expect(reason('https://a.example/', { ...all, paused: false }, { incognito: true })).toBe('private-window');
    expect(reason('https://a.example/', { ...all, paused: false })).toBe('deny-listed');
    expect(reason('https://b.example/', { ...all, paused: false })).toBe('not-allow-listed');
  });
});

describe('shouldProbe: deny and allow lists', () => {
  it('an exact origin entry matches only that origin', () => {
    const s = settings({ denyList: ['https://a.example'] });
    expect(reason('https://a.example/page', s)).toBe('deny-listed');
    expect(reason('https://a.example:443/page', s)).toBe('deny-listed');
    expect(reason('http://a.example/page', s)).toBe('probe http://a.example');
    expect(reason('https://a.example:8443/', s)).toBe('probe https://a.example:8443');
    expect(reason('https://b.a.example/', s)).toBe('probe https://b.a.example');
  });

  it('an origin entry with a path still means the origin', () => {
    expect(reason('https://a.example/x', settings({ denyList: ['https://a.example/some/page'] }))).toBe('deny-listed');
  });

  it('a host entry matches every scheme and port of that host, not its subdomains', () => {
    const s = settings({ denyList: ['a.example'] });
    expect(reason('https://a.example/', s)).toBe('deny-listed');
    expect(reason('http://a.example:8080/', s)).toBe('deny-listed');
    expect(reason('https://www.a.example/', s)).toBe('probe https://www.a.example');
    expect(reason('https://xa.example/', s)).toBe('probe https://xa.example');
  });

  it('a host entry with a port matches that port only', () => {
    const s = settings({ denyList: ['localhost:3000'] });
    expect(reason('http://localhost:3000/', s)).toBe('deny-listed');
    expect(reason('http://localhost:4000/', s)).toBe('probe http://localhost:4000');
    expect(reason('https://a.example/', settings({ denyList: ['a.example:443'] }))).toBe('deny-listed');
    expect(reason('http://localhost/', settings({ denyList: ['localhost:80'] }))).toBe('deny-listed');
    expect(reason('http://localhost:8080/', settings({ denyList: ['localhost:80'] }))).toBe('probe http://localhost:8080');
  });

  it('*.example matches the apex and every subdomain, nothing else', () => {
    const s = settings({ denyList: ['*.example.com'] });
    expect(reason('https://example.com/', s)).toBe('deny-listed');
    expect(reason('https://a.example.com/', s)).toBe('deny-listed');
    expect(reason('http://a.b.example.com:81/', s)).toBe('deny-listed');
    expect(reason('https://notexample.com/', s)).toBe('probe https://notexample.com');
    expect(reason('https://example.com.evil.net/', s)).toBe('probe https://example.com.evil.net');
  });

  it('entries are case-insensitive, trimmed, and IDN names match their punycode form', () => {
    expect(reason('https://a.example/', settings({ denyList: ['  A.EXAMPLE  '] }))).toBe('deny-listed');
    expect(reason('https://xn--bcher-kva.example/', settings({ denyList: ['bücher.example'] }))).toBe('deny-listed');
    expect(reason('https://a.xn--bcher-kva.example/', settings({ denyList: ['*.bücher.example'] }))).toBe('deny-listed');
    expect(reason('https://a.example./', settings({ denyList: ['a.example'] }))).toBe('deny-listed');
  });

  it('deny wins over allow', () => {
    const s = settings({ allowList: ['a.example'], denyList: ['a.example'] });
    expect(reason('https://a.example/', s)).toBe('deny-listed');
    expect(reason('https://a.example/', { ...s, allowListOnly: true })).toBe('deny-listed');
  });

  it('allowListOnly probes only allow-listed origins', () => {
    const s = settings({ allowListOnly: true, allowList: ['https://a.example', '*.b.example', 'c.example'] });
    expect(reason('https://a.example/', s)).toBe('probe https://a.example');
    expect(reason('https://x.b.example/', s)).toBe('probe https://x.b.example');
    expect(reason('http://c.example/', s)).toBe('probe http://c.example');
    expect(reason('http://a.example/', s)).toBe('not-allow-listed');
    expect(reason('https://d.example/', s)).toBe('not-allow-listed');
    expect(reason('https://d.example/', settings({ allowListOnly: true }))).toBe('not-allow-listed');
  });

  it('the allow list alone restricts nothing', () => {
    expect(reason('https://d.example/', settings({ allowList: ['a.example'] }))).toBe('probe https://d.example');
  });

  it('malformed entries never match and never throw', () => {
    const junk = ['', '   ', '*.', '*', 'http://', 'a b', 'user@a.example', 'a.example/path', 'javascript:alert(1)', 'file:///x', '*.a.example:80'];
    const s = settings({ denyList: junk, allowList: junk, allowListOnly: true });
    expect(reason('https://a.example/', s)).toBe('not-allow-listed');
    const corrupt = { ...settings(), denyList: [42, null, 'a.example'] as unknown as string[] };
    expect(reason('https://a.example/', corrupt)).toBe('deny-listed');
    expect(reason('https://a.example/', { ...settings(), denyList: null as unknown as string[] })).toBe('probe https://a.example');
  });
});

describe('parseListEntry and listMatches', () => {
  it('parses the three entry forms', () => {
    expect(parseListEntry('https://A.example:443/x')).toEqual({ kind: 'origin', origin: 'https://a.example' });
    expect(parseListEntry('a.example')).toEqual({ kind: 'host', host: 'a.example', port: null });
    expect(parseListEntry('a.example/')).toEqual({ kind: 'host', host: 'a.example', port: null });
    expect(parseListEntry('127.0.0.1:8080')).toEqual({ kind: 'host', host: '127.0.0.1', port: '8080' });
    expect(parseListEntry('*.example')).toEqual({ kind: 'wildcard', suffix: 'example' });
    expect(parseListEntry('ftp://a.example')).toBeNull();
    expect(parseListEntry('a.example/path')).toBeNull();
  });
  it('listMatches reads a list against a URL', () => {
    expect(listMatches(['x.example', '*.a.example'], new URL('https://b.a.example/'))).toBe(true);
    expect(listMatches([], new URL('https://b.a.example/'))).toBe(false);
    expect(listMatches(undefined, new URL('https://b.a.example/'))).toBe(false);
  });
});
