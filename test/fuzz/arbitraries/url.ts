// Listed URLs built from pieces a publisher controls: schemes, slashes, user info, hosts that
// are private or loopback in disguise (short and hex IPv4, IPv4-mapped IPv6, .localhost),
// ports, dot segments (plain and percent-encoded), placeholders and forbidden characters.
import fc from 'fast-check';
import { hostileText } from './text';

export const scheme = fc.constantFrom('', '', 'https:', 'https:', 'http:', 'HTTPS:', 'hTtPs:', 'javascript:', 'data:', 'file:', 'ftp:', 'blob:', 'chrome-extension:', 'about:', 'ws:');
const slashes = fc.constantFrom('', '/', '//', '//', '///', '\\\\', '/\\', '\\/');
const userinfo = fc.constantFrom('', '', '', 'user@', 'u:p@', '@', ':@', 'example.test@');
export const host = fc.constantFrom(
  'example.test',
  'example.test',
  'EXAMPLE.test',
  'sub.example.test',
  'other.test',
  'cdn.other.test',
  'example.test.',
  'localhost',
  'LOCALHOST',
  'foo.localhost',
  '127.0.0.1',
  '127.1',
  '0x7f.1',
  '0177.0.0.1',
  '2130706433',
  '0',
  '0.0.0.0',
  '[::1]',
  '[::]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[fe80::1]',
  '[fd00::1]',
  '10.0.0.1',
  '192.168.1.1',
  '172.16.0.1',
  '169.254.169.254',
  '100.64.0.1',
  'printer.local',
  'router.internal',
  'xn--nxasmq6b',
  'ex%61mple.test',
  'exa mple.test',
  '',
);
const port = fc.constantFrom('', '', '', ':443', ':80', ':8080', ':0', ':65535', ':65536', ':', ':x');
const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('skills', 'a', 'SKILL.md', 'pkg.zip', 'pkg.tar.gz', 'docs', '.well-known', 'agent-skills') },
  { weight: 2, arbitrary: fc.constantFrom('..', '.', '%2e%2e', '%2E.', '.%2e', '%2F', '', 'a b', '__NAME__', '__x__', '{{x}}', '${x}', 'é', '%', '%zz', ';x', 'a\\b', '\t', 'a#b', 'a?b') },
  { weight: 1, arbitrary: hostileText(3) },
);
const query = fc.constantFrom('', '', '', '?a=1', '?', '?x=%00', '?{{q}}');
const fragment = fc.constantFrom('', '', '', '#x', '#', '#a b', '#../..');

/** A raw URL as a document would list it. */
export const rawUrl: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ scheme, slashes, userinfo, host, port, path: fc.array(segment, { maxLength: 5 }), query, fragment, absolutePath: fc.boolean() }).map((p) => {
      const path = (p.absolutePath ? '/' : '') + p.path.join('/');
      // With no slashes the host would read as a path segment: leave it out half of the time.
      const authority = p.slashes.length > 0 ? `${p.userinfo}${p.host}${p.port}` : '';
      return `${p.scheme}${p.slashes}${authority}${authority !== '' && path !== '' && !path.startsWith('/') ? '/' : ''}${path}${p.query}${p.fragment}`;
    }),
  },
  { weight: 1, arbitrary: hostileText(6) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'SKILL.md', '/skills/a/SKILL.md', '//evil.test/x', 'https://example.test/a/SKILL.md', 'data:text/plain,hi', 'javascript:alert(1)') },
);

/** The listing document's final URL (the base) and the probed origin it belongs to. */
export interface Base {
  finalUrl: string;
  origin: string;
}

export const base: fc.Arbitrary<Base> = fc.constantFrom<Base>(
  { finalUrl: 'https://example.test/llms.txt', origin: 'https://example.test' },
  { finalUrl: 'https://example.test/docs/llms.txt', origin: 'https://example.test' },
  { finalUrl: 'https://example.test/.well-known/agent-skills/index.json', origin: 'https://example.test' },
  { finalUrl: 'https://cdn.other.test/x/y/llms.txt', origin: 'https://example.test' },
  { finalUrl: 'http://127.0.0.1:8080/llms.txt', origin: 'http://127.0.0.1:8080' },
  { finalUrl: 'http://localhost/docs/', origin: 'http://localhost' },
  { finalUrl: 'https://192.168.1.1/llms.txt', origin: 'https://192.168.1.1' },
  { finalUrl: 'https://example.test/llms.txt', origin: 'http://example.test' },
  { finalUrl: 'https://example.test/llms.txt', origin: 'not an origin' },
  { finalUrl: 'https://example.test/llms.txt', origin: 'file:///etc' },
);
