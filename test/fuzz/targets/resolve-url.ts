// resolveArtifactUrl (FORMATS.md §1.4, §2.4, §9.3): listed URLs built from schemes, slashes,
// user info, disguised private hosts, ports, dot segments, placeholders and forbidden characters,
// against bases on public, loopback, private and unusable origins.
import fc from 'fast-check';
import { findPlaceholder, resolveArtifactUrl } from '../../../lib/parse/resolve-url';
import { base, rawUrl } from '../arbitraries/url';
import { checkCode, checkResolvedUrl } from '../invariants';
import { call, check, seen, type FuzzTarget } from '../types';

export const resolveUrlTarget: FuzzTarget = {
  id: 'resolve-url',
  entry: 'resolveArtifactUrl (lib/parse/resolve-url.ts, lib/net/url-safety.ts)',
  inputs: 'URLs from schemes, slashes, user info, disguised loopback and private hosts, ports, dot segments, placeholders, forbidden characters; public, loopback, private and unusable bases',
  property: () =>
    fc.property(rawUrl, base, (raw, b) => {
      const r = call('resolveArtifactUrl', () => resolveArtifactUrl(raw, b.finalUrl, b.origin));
      if (!r.ok) {
        checkCode(r.code, 'resolve-url');
        seen(r.code);
        check(typeof r.message === 'string' && r.message.length > 0, 'a refusal without a message');
        if (raw === '') check(r.code === 'url-empty', `the empty URL is refused as ${r.code}`);
        return;
      }
      seen('ok');
      check(raw !== '', 'the empty URL resolved');
      check(!/[\s\p{Cc}\\]/u.test(raw), 'a URL with whitespace, a control character or a backslash resolved');
      check(findPlaceholder(raw) === null, 'a URL with a template placeholder resolved');
      checkResolvedUrl(r.url, b.origin, 'resolve-url');
      const expected = new URL(raw, b.finalUrl);
      expected.hash = '';
      check(r.url === expected.href, `resolved to ${r.url}, not ${expected.href}`);
    }),
};
