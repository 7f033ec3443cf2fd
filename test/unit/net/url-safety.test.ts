import { describe, expect, it } from 'vitest';
import { checkArtifactUrl, classifyHost, isPublicOrigin, type HostClass } from '../../../lib/net/url-safety';

describe('classifyHost', () => {
  const cases: Array<[string, HostClass]> = [
    // IPv4 loopback and "this host"
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'loopback'],
    // private
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    // private boundaries
    ['172.15.255.255', 'public'],
    ['172.32.0.1', 'public'],
    ['192.169.0.1', 'public'],
    ['11.0.0.1', 'public'],
    ['126.255.255.255', 'public'],
    ['128.0.0.1', 'public'],
    // link-local
    ['169.254.169.254', 'link-local'],
    ['169.255.0.1', 'public'],
    // other spellings of IPv4 that URL parsing normalizes
    ['2130706433', 'loopback'], // decimal 127.0.0.1
    ['0x7f.1', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0177.0.0.1', 'loopback'], // octal
    ['127.1', 'loopback'],
    ['0xa9fea9fe', 'link-local'], // 169.254.169.254
    ['3232235777', 'private'], // 192.168.1.1
    // IPv6
    ['[::1]', 'loopback'],
    ['::1', 'loopback'],
    ['[0:0:0:0:0:0:0:1]', 'loopback'],
    ['[::]', 'loopback'],
    ['[fc00::1]', 'private'],
    ['[fd12:3456::1]', 'private'],
    ['[fe80::1]', 'link-local'],
    ['[febf::1]', 'link-local'],
    ['[fec0::1]', 'private'],
    ['[2606:4700::1111]', 'public'],
    ['[fb00::1]', 'public'],
    // IPv4-mapped, dotted and as URL serializes it
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['[::ffff:10.1.2.3]', 'private'],
    ['[::ffff:a01:203]', 'private'],
    ['[::ffff:169.254.1.1]', 'link-local'],
    ['[::ffff:c0a8:101]', 'private'],
    ['[::ffff:8.8.8.8]', 'public'],
    ['[::ffff:808:808]', 'public'],
    ['[0:0:0:0:0:ffff:7f00:1]', 'loopback'],
    // deprecated IPv4-compatible form
    ['[::127.0.0.1]', 'loopback'],
    // names
    ['localhost', 'loopback'],
    ['LOCALHOST', 'loopback'],
    ['localhost.', 'loopback'],
    ['a.localhost', 'loopback'],
    ['printer.local', 'local-domain'],
    ['Printer.LOCAL.', 'local-domain'],
    ['example.com', 'public'],
    ['localhost.example.com', 'public'],
    ['local.example.com', 'public'],
    ['8.8.8.8', 'public'],
    // hardening round 2: special-purpose IPv4
    ['100.64.0.1', 'private'],
    ['100.127.255.254', 'private'],
    ['100.63.255.255', 'public'],
    ['100.128.0.1', 'public'],
    ['0.1.2.3', 'loopback'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.20.0.1', 'public'],
    ['224.0.0.1', 'reserved'],
    ['239.255.255.250', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['192.0.3.1', 'public'],
    ['223.255.255.255', 'public'],
    // special-purpose IPv6, and IPv6 forms that carry an IPv4 address
    ['[2001:db8::1]', 'reserved'],
    ['[ff02::1]', 'reserved'],
    ['[100::1]', 'reserved'],
    ['[64:ff9b::7f00:1]', 'loopback'],
    ['[64:ff9b::10.0.0.1]', 'private'],
    ['[64:ff9b::8.8.8.8]', 'public'],
    ['[64:ff9b:1::1]', 'private'],
    ['[::ffff:0:127.0.0.1]', 'loopback'],
    ['[::ffff:0:a00:1]', 'private'],
    ['[2002:7f00:1::1]', 'loopback'],
    ['[2002:c0a8:101::1]', 'private'],
    ['[2002:808:808::1]', 'public'],
    ['[2001:0:4136:e378:8000:63bf:80ff:fffe]', 'loopback'], // Teredo client 127.0.0.1 (inverted)
    ['[2001:0:4136:e378:8000:63bf:f7f7:f7f7]', 'public'], // Teredo client 8.8.8.8
    // names only a local resolver answers
    ['router', 'local-domain'],
    ['nas.', 'local-domain'],
    ['notlocal', 'local-domain'],
    ['printer.lan', 'local-domain'],
    ['db.internal', 'local-domain'],
    ['tv.home.arpa', 'local-domain'],
    ['box.localdomain', 'local-domain'],
    ['api.localhost', 'loopback'],
    // public wildcard-DNS names that land on loopback or on the address they spell
    ['localtest.me', 'loopback'],
    ['app.lvh.me', 'loopback'],
    ['x.vcap.me', 'loopback'],
    ['127.0.0.1.nip.io', 'local-domain'],
    ['10-0-0-1.sslip.io', 'local-domain'],
    ['a.xip.io', 'local-domain'],
    ['app.traefik.me', 'local-domain'],
    // look-alikes stay public
    ['internal.example.com', 'public'],
    ['lan.example.org', 'public'],
    ['nip.io.example.com', 'public'],
    ['mylvh.me', 'public'],
  ];
  it.each(cases)('%s → %s', (host, expected) => {
    expect(classifyHost(host)).toBe(expected);
  });

  it('agrees with URL.hostname for hostile spellings', () => {
    for (const href of ['http://0x7f.0.0.1/', 'http://[::ffff:127.0.0.1]/', 'http://2130706433/', 'http://LocalHost./']) {
      expect(classifyHost(new URL(href).hostname)).toBe('loopback');
    }
  });
});

describe('isPublicOrigin', () => {
  it('is true for public hosts', () => {
    expect(isPublicOrigin('https://docs.example.com')).toBe(true);
    expect(isPublicOrigin('http://8.8.8.8:8080')).toBe(true);
  });
  it('is false for loopback, private, link-local and .local origins', () => {
    expect(isPublicOrigin('http://127.0.0.1:4000')).toBe(false);
    expect(isPublicOrigin('http://localhost:3000')).toBe(false);
    expect(isPublicOrigin('http://[::1]:8080')).toBe(false);
    expect(isPublicOrigin('http://192.168.0.10')).toBe(false);
    expect(isPublicOrigin('http://169.254.1.1')).toBe(false);
    expect(isPublicOrigin('http://nas.local')).toBe(false);
  });
  it('is false for what is not an http(s) origin', () => {
    expect(isPublicOrigin('not a url')).toBe(false);
    expect(isPublicOrigin('file:///etc/passwd')).toBe(false);
    expect(isPublicOrigin('')).toBe(false);
  });
});

describe('checkArtifactUrl', () => {
  const pub = 'https://pub.example';
  const code = (origin: string, href: string): string => {
    const r = checkArtifactUrl(origin, new URL(href));
    return r.ok ? 'ok' : r.code;
  };

  it('allows https on the origin and on other public hosts', () => {
    expect(code(pub, 'https://pub.example/skills/a/SKILL.md')).toBe('ok');
    expect(code(pub, 'https://raw.example.org/a/SKILL.md')).toBe('ok');
  });

  it('allows http only when the origin is http', () => {
    expect(code(pub, 'http://pub.example/a/SKILL.md')).toBe('url-downgrade');
    expect(code('http://pub.example', 'http://pub.example/a/SKILL.md')).toBe('ok');
    expect(code('http://pub.example', 'https://pub.example/a/SKILL.md')).toBe('ok');
  });

  it('refuses every non-http(s) scheme', () => {
    for (const href of [
      'data:text/plain,hello',
      'blob:https://pub.example/1234',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'chrome-extension://abcdefghijklmnop/x',
      'moz-extension://1234/x',
      'ftp://pub.example/a',
      'ws://pub.example/a',
    ]) {
      expect(code(pub, href), href).toBe('url-scheme');
    }
  });

  it('refuses credentials in the URL', () => {
    expect(code(pub, 'https://user:pass@pub.example/a')).toBe('url-credentials');
    expect(code(pub, 'https://user@pub.example/a')).toBe('url-credentials');
    expect(code(pub, 'https://:pass@pub.example/a')).toBe('url-credentials');
    expect(code('http://127.0.0.1:8080', 'http://u:p@127.0.0.1:8080/a')).toBe('url-credentials');
  });

  it('refuses local targets from a public origin, in every spelling', () => {
    for (const href of [
      'https://localhost/a',
      'https://a.localhost/a',
      'https://127.0.0.1/a',
      'https://127.8.9.10/a',
      'https://2130706433/a',
      'https://0x7f.1/a',
      'https://0.0.0.0/a',
      'https://10.0.0.5/a',
      'https://172.20.0.1/a',
      'https://192.168.1.1/a',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/a',
      'https://[::ffff:127.0.0.1]/a',
      'https://[::ffff:7f00:1]/a',
      'https://[fd00::1]/a',
      'https://[fe80::1]/a',
      'https://printer.local/a',
    ]) {
      expect(code(pub, href), href).toBe('url-private-target');
    }
  });

  it('lets loopback and private origins point at local hosts', () => {
    expect(code('http://127.0.0.1:4000', 'http://127.0.0.1:4000/a/SKILL.md')).toBe('ok');
    expect(code('http://127.0.0.1:4000', 'http://localhost:5000/a/SKILL.md')).toBe('ok');
    expect(code('http://192.168.1.2', 'http://10.0.0.1/a')).toBe('ok');
    expect(code('http://nas.local', 'http://[::1]/a')).toBe('ok');
  });

  it('refuses when the origin itself is unusable', () => {
    expect(code('garbage', 'https://pub.example/a')).toBe('url-origin');
    expect(code('file:///x', 'https://pub.example/a')).toBe('url-origin');
  });

  it('gives a message with every refusal', () => {
    const r = checkArtifactUrl(pub, new URL('https://10.0.0.1/a'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/private/);
  });
});
