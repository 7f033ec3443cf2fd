// lib/origin.ts: the one place that says what an origin is.
import { describe, expect, it } from 'vitest';
import { httpOrigin, isHttpOrigin, isHttpUrl, originOfEntry } from '../../lib/origin';

describe('isHttpOrigin: an exact http(s) origin as URL.origin spells it', () => {
  it('takes scheme://host[:port] and nothing else', () => {
    for (const v of ['https://a.example', 'http://localhost:3000', 'http://[::1]:8080', 'https://xn--bcher-kva.example']) expect(isHttpOrigin(v), v).toBe(true);
    for (const v of ['https://a.example/', 'https://A.example', 'https://a.example:443', 'https://a.example/x', 'ftp://a.example', 'a.example', '', null, 3, 'https://u@a.example'])
      expect(isHttpOrigin(v), String(v)).toBe(false);
    expect(isHttpOrigin(`https://${'a'.repeat(2100)}.example`)).toBe(false);
  });
});

describe('httpOrigin: the origin of any http(s) URL', () => {
  it('drops path, query, fragment and a default port; refuses other schemes', () => {
    expect(httpOrigin('https://A.example:443/x?y#z')).toBe('https://a.example');
    expect(httpOrigin('http://a.example:8080/')).toBe('http://a.example:8080');
    for (const v of ['', 'about:blank', 'chrome://extensions', 'file:///tmp/x', 'not a url', undefined]) expect(httpOrigin(v), String(v)).toBeNull();
    expect(isHttpUrl(new URL('https://a.example'))).toBe(true);
    expect(isHttpUrl(new URL('ws://a.example'))).toBe(false);
  });
});

describe('originOfEntry: a line a person wrote', () => {
  it('trims, drops a path, refuses credentials and other schemes', () => {
    expect(originOfEntry('  https://a.example/some/path ')).toBe('https://a.example');
    expect(originOfEntry('https://user:pw@a.example')).toBeNull();
    expect(originOfEntry('https://user@a.example')).toBeNull();
    expect(originOfEntry('ftp://a.example')).toBeNull();
    expect(originOfEntry('a.example')).toBeNull();
  });
  it('bare: nothing after the origin but one slash', () => {
    expect(originOfEntry('https://a.example/', { bare: true })).toBe('https://a.example');
    expect(originOfEntry('https://a.example', { bare: true })).toBe('https://a.example');
    for (const v of ['https://a.example/x', 'https://a.example/?q', 'https://a.example/#f']) expect(originOfEntry(v, { bare: true }), v).toBeNull();
  });
});
