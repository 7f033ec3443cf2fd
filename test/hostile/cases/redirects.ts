// Redirects and URLs: loops, too many hops, discovery documents leaving the origin, artifact URLs
// aimed at loopback, private, link-local and .local hosts, dangerous schemes, credentials and
// scheme downgrades. The node runner probes https://hostile.example (a public origin mapped onto
// the loopback server); any request to a host it does not map is a failure of the case.
import { CONTROL, CONTROL_BODY, firstProblem, one, requestedPaths, skillOf, withControl } from './common';
import { PATH, entryFor, indexDoc, indexSite, json, llmsTxt, markdown, rawDigest, redirect, skillText, text } from '../site-kit';
import { ORIGIN_HEADER } from '../server';
import { OTHER_ORIGIN, type CheckContext, type HostileCase, type ReplySpec, type StatusExpectation } from '../types';

const TARGET_BODY = skillText('target');

/** The index lists the control skill and `target` at `url` (with a matching digest). */
function urlCase(id: string, title: string, url: string, status: StatusExpectation, extra: Partial<HostileCase> = {}): HostileCase {
  return {
    id,
    category: 'redirect-url',
    title,
    site: () => {
      const stage = indexSite([CONTROL]);
      stage.paths[PATH.index] = json(indexDoc([entryFor('control', '/skills/control/SKILL.md', CONTROL_BODY), entryFor('target', url, TARGET_BODY)]));
      return one(stage);
    },
    expected: { skillStatuses: { control: 'verified', target: status } },
    ...extra,
  };
}

/** A chain /hop/1 → … → /hop/n → `final`, starting at `first`. */
function chain(first: string, n: number, final: string): Record<string, ReplySpec> {
  const paths: Record<string, ReplySpec> = {};
  const hops = Array.from({ length: n }, (_, i) => `/hop/${i + 1}`);
  const all = [first, ...hops.slice(0, -1)];
  all.forEach((from, i) => {
    paths[from] = redirect(i === all.length - 1 ? final : (hops[i] as string));
  });
  if (n === 0) delete paths[first];
  return paths;
}

/** The target skill redirected by `steps` (path → reply) starting at /skills/target/SKILL.md. */
function artifactRedirectCase(id: string, title: string, paths: Record<string, ReplySpec>, status: StatusExpectation, extra: Partial<HostileCase> = {}): HostileCase {
  return {
    id,
    category: 'redirect-url',
    title,
    site: () => {
      const stage = indexSite([CONTROL, { name: 'target', body: TARGET_BODY }]);
      delete stage.paths['/skills/target/SKILL.md'];
      Object.assign(stage.paths, paths);
      return one(stage);
    },
    expected: { skillStatuses: { control: 'verified', target: status } },
    ...extra,
  };
}

function noRequestFrom(origin: string): (ctx: CheckContext) => string | null {
  return (ctx) => (ctx.log.some((r) => r.headers[ORIGIN_HEADER] === origin) ? `a request reached ${origin}` : null);
}

const CONTROL_LLMS = (): string => llmsTxt([{ title: 'control', url: '/skills/control/SKILL.md', meta: { sha256: rawDigest(CONTROL_BODY) } }]);

export const REDIRECT_URL_CASES: HostileCase[] = [
  // --- loops and hop counts ---
  {
    id: 'llms-redirect-loop',
    category: 'redirect-url',
    title: 'llms.txt redirects to /a, which redirects back to /llms.txt',
    site: () => withControl({ [PATH.llms]: redirect('/a'), '/a': redirect('/llms.txt') }),
    expected: { sources: { 'llms-txt': 'absent/too-many-redirects' }, skillStatuses: { control: 'verified' } },
    browser: { include: true, assert: 'The probe finishes; the control skill is verified and llms.txt is reported absent (redirect loop).' },
  },
  {
    id: 'llms-redirect-6-hops',
    category: 'redirect-url',
    title: 'llms.txt reached after 6 redirects',
    site: () => withControl({ ...chain(PATH.llms, 6, '/real-llms.txt'), '/real-llms.txt': text(CONTROL_LLMS()) }),
    expected: { sources: { 'llms-txt': 'absent/too-many-redirects' }, skillStatuses: { control: 'verified' } },
  },
  {
    id: 'llms-redirect-5-hops-relative-urls',
    category: 'redirect-url',
    title: 'llms.txt reached after exactly 5 redirects, at /docs/, listing a relative URL',
    site: () =>
      one({
        paths: {
          ...chain(PATH.llms, 5, '/docs/llms.txt'),
          '/docs/llms.txt': text(llmsTxt([{ title: 'rel', url: 'skills/rel/SKILL.md', meta: { sha256: rawDigest(skillText('rel')) } }])),
          '/docs/skills/rel/SKILL.md': markdown(skillText('rel')),
        },
      }),
    expected: {
      sources: { 'llms-txt': 'ok' },
      skillStatuses: { rel: 'verified' },
      custom: {
        text: 'the URL resolves against the final llms.txt URL',
        check: (ctx) => {
          const s = skillOf(ctx.report, 'rel');
          return s?.url === 'https://hostile.example/docs/skills/rel/SKILL.md' ? null : `resolved to ${s?.url ?? 'nothing'}`;
        },
      },
    },
  },
  artifactRedirectCase('skill-redirect-loop', 'SKILL.md redirects in a loop', { '/skills/target/SKILL.md': redirect('/x'), '/x': redirect('/skills/target/SKILL.md') }, 'fetch-failed/fetch-redirect', {
    browser: { include: true, assert: 'The skill shows fetch-failed (redirect loop); the control skill is verified.' },
  }),
  artifactRedirectCase(
    'skill-redirect-6-hops',
    'SKILL.md reached after 6 redirects',
    { ...chain('/skills/target/SKILL.md', 6, '/final.md'), '/final.md': markdown(TARGET_BODY) },
    'fetch-failed/fetch-redirect',
  ),
  artifactRedirectCase('skill-redirect-5-hops', 'SKILL.md reached after exactly 5 redirects', { ...chain('/skills/target/SKILL.md', 5, '/final.md'), '/final.md': markdown(TARGET_BODY) }, 'verified'),
  artifactRedirectCase('skill-redirect-no-location', 'SKILL.md answers 302 without a Location', { '/skills/target/SKILL.md': redirect(null) }, 'fetch-failed/fetch-redirect'),

  // --- discovery documents leaving the origin ---
  {
    id: 'llms-redirect-other-origin',
    category: 'redirect-url',
    title: 'llms.txt redirects to another origin',
    site: () => withControl({ [PATH.llms]: redirect(`${OTHER_ORIGIN}/llms.txt`) }),
    expected: {
      sources: { 'llms-txt': 'absent/cross-origin-redirect' },
      skillStatuses: { control: 'verified' },
      custom: { text: 'the other origin is never asked', check: noRequestFrom(OTHER_ORIGIN) },
    },
  },
  {
    id: 'index-redirect-other-origin',
    category: 'redirect-url',
    title: 'The index redirects to another origin; the legacy index is on the origin',
    site: () => {
      const stage = indexSite([CONTROL]);
      const legacy = stage.paths[PATH.index] as ReplySpec;
      return one({ paths: { ...stage.paths, [PATH.index]: redirect(`${OTHER_ORIGIN}${PATH.index}`), [PATH.legacy]: legacy } });
    },
    expected: {
      sources: { index: 'absent/cross-origin-redirect', 'legacy-index': 'ok' },
      skillStatuses: { control: 'verified' },
      diagnostics: ['legacy-index-used'],
      custom: { text: 'the other origin is never asked', check: noRequestFrom(OTHER_ORIGIN) },
    },
  },
  {
    id: 'index-redirect-scheme-downgrade',
    category: 'redirect-url',
    title: 'The index redirects from https to http on the same host',
    site: () =>
      one({ paths: { [PATH.index]: redirect('http://hostile.example/.well-known/agent-skills/index.json'), [PATH.llms]: text(CONTROL_LLMS()), '/skills/control/SKILL.md': markdown(CONTROL_BODY) } }),
    expected: { sources: { index: 'absent/cross-origin-redirect' }, skillStatuses: { control: 'verified' } },
  },
  {
    id: 'llms-redirect-to-loopback',
    category: 'redirect-url',
    title: 'llms.txt redirects to http://127.0.0.1:9/llms.txt',
    site: () => withControl({ [PATH.llms]: redirect('http://127.0.0.1:9/llms.txt') }),
    expected: { sources: { 'llms-txt': 'absent/cross-origin-redirect' }, skillStatuses: { control: 'verified' } },
  },

  // --- artifact URLs aimed at internal hosts (public origin) ---
  urlCase('skill-url-loopback-ip', 'Artifact URL https://127.0.0.1/SKILL.md', 'https://127.0.0.1/SKILL.md', 'invalid'),
  urlCase('skill-url-localhost', 'Artifact URL https://localhost/SKILL.md', 'https://localhost/SKILL.md', 'invalid'),
  urlCase('skill-url-localhost-subdomain', 'Artifact URL https://api.localhost/SKILL.md', 'https://api.localhost/SKILL.md', 'invalid'),
  urlCase('skill-url-private-10', 'Artifact URL https://10.0.0.5/SKILL.md', 'https://10.0.0.5/SKILL.md', 'invalid'),
  urlCase('skill-url-private-172', 'Artifact URL https://172.20.1.1/SKILL.md', 'https://172.20.1.1/SKILL.md', 'invalid'),
  urlCase('skill-url-private-192', 'Artifact URL https://192.168.1.1/SKILL.md', 'https://192.168.1.1/SKILL.md', 'invalid'),
  urlCase('skill-url-link-local-metadata', 'Artifact URL at the cloud metadata address 169.254.169.254', 'https://169.254.169.254/latest/meta-data/SKILL.md', 'invalid'),
  urlCase('skill-url-dot-local', 'Artifact URL https://printer.local/SKILL.md', 'https://printer.local/SKILL.md', 'invalid'),
  urlCase('skill-url-ipv6-loopback', 'Artifact URL https://[::1]/SKILL.md', 'https://[::1]/SKILL.md', 'invalid'),
  urlCase('skill-url-ipv4-mapped-ipv6', 'Artifact URL https://[::ffff:127.0.0.1]/SKILL.md', 'https://[::ffff:127.0.0.1]/SKILL.md', 'invalid'),
  urlCase('skill-url-ipv6-unique-local', 'Artifact URL https://[fd12:3456::1]/SKILL.md', 'https://[fd12:3456::1]/SKILL.md', 'invalid'),
  urlCase('skill-url-ipv6-link-local', 'Artifact URL https://[fe80::1]/SKILL.md', 'https://[fe80::1]/SKILL.md', 'invalid'),
  urlCase('skill-url-decimal-ip', 'Artifact URL https://2130706433/SKILL.md (127.0.0.1 as one number)', 'https://2130706433/SKILL.md', 'invalid'),
  urlCase('skill-url-hex-octal-ip', 'Artifact URL https://0x7f.0.0.01/SKILL.md', 'https://0x7f.0.0.01/SKILL.md', 'invalid'),
  urlCase('skill-url-zero-ip', 'Artifact URL https://0.0.0.0/SKILL.md', 'https://0.0.0.0/SKILL.md', 'invalid'),
  // hardening round 2: more hosts that are not public
  urlCase('skill-url-single-label', 'Artifact URL https://router/SKILL.md (a single-label name)', 'https://router/SKILL.md', 'invalid'),
  urlCase('skill-url-dot-internal', 'Artifact URL https://db.internal/SKILL.md', 'https://db.internal/SKILL.md', 'invalid'),
  urlCase('skill-url-home-arpa', 'Artifact URL https://tv.home.arpa/SKILL.md', 'https://tv.home.arpa/SKILL.md', 'invalid'),
  urlCase('skill-url-cgnat', 'Artifact URL https://100.64.0.1/SKILL.md (shared address space)', 'https://100.64.0.1/SKILL.md', 'invalid'),
  urlCase('skill-url-benchmarking', 'Artifact URL https://198.18.0.1/SKILL.md (benchmarking range)', 'https://198.18.0.1/SKILL.md', 'invalid'),
  urlCase('skill-url-multicast', 'Artifact URL https://224.0.0.251/SKILL.md (multicast)', 'https://224.0.0.251/SKILL.md', 'invalid'),
  urlCase('skill-url-nat64-loopback', 'Artifact URL https://[64:ff9b::7f00:1]/SKILL.md (NAT64 form of 127.0.0.1)', 'https://[64:ff9b::7f00:1]/SKILL.md', 'invalid'),
  urlCase('skill-url-ipv4-translated', 'Artifact URL https://[::ffff:0:a00:1]/SKILL.md (IPv4-translated 10.0.0.1)', 'https://[::ffff:0:a00:1]/SKILL.md', 'invalid'),
  urlCase('skill-url-6to4-private', 'Artifact URL https://[2002:c0a8:101::1]/SKILL.md (6to4 of 192.168.1.1)', 'https://[2002:c0a8:101::1]/SKILL.md', 'invalid'),
  urlCase('skill-url-wildcard-dns-nip', 'Artifact URL https://127.0.0.1.nip.io/SKILL.md (wildcard DNS)', 'https://127.0.0.1.nip.io/SKILL.md', 'invalid'),
  urlCase('skill-url-wildcard-dns-localtest', 'Artifact URL https://app.localtest.me/SKILL.md (resolves to 127.0.0.1)', 'https://app.localtest.me/SKILL.md', 'invalid'),
  artifactRedirectCase('skill-redirect-to-single-label', 'SKILL.md redirects to https://nas/SKILL.md', { '/skills/target/SKILL.md': redirect('https://nas/SKILL.md') }, 'invalid/url-blocked'),
  artifactRedirectCase('skill-redirect-to-loopback', 'SKILL.md redirects to https://127.0.0.1/SKILL.md', { '/skills/target/SKILL.md': redirect('https://127.0.0.1/SKILL.md') }, 'invalid/url-blocked'),
  artifactRedirectCase(
    'skill-redirect-to-metadata',
    'SKILL.md redirects to http://169.254.169.254/',
    { '/skills/target/SKILL.md': redirect('http://169.254.169.254/latest/meta-data/') },
    'invalid/url-blocked',
  ),
  artifactRedirectCase(
    'skill-redirect-to-dot-local',
    'SKILL.md redirects to https://nas.local/SKILL.md',
    { '/skills/target/SKILL.md': redirect('https://nas.local/SKILL.md', 307) },
    'invalid/url-blocked',
  ),
  artifactRedirectCase(
    'skill-redirect-to-private',
    'SKILL.md redirects to https://10.1.2.3/SKILL.md after one same-origin hop',
    { '/skills/target/SKILL.md': redirect('/hop'), '/hop': redirect('https://10.1.2.3/SKILL.md', 308) },
    'invalid/url-blocked',
  ),

  // --- schemes, credentials, downgrades ---
  urlCase('skill-url-javascript', 'Artifact URL javascript:fetch(…)', "javascript:fetch('/never/js-url')", 'invalid', {
    browser: { include: true, assert: 'The skill is invalid; no link in the popup carries the javascript: URL; /never/js-url is never requested.', beacons: ['/never/js-url'] },
  }),
  urlCase('skill-url-data', 'Artifact URL data:text/markdown;base64,…', `data:text/markdown;base64,${Buffer.from(TARGET_BODY).toString('base64')}`, 'invalid'),
  urlCase('skill-url-file', 'Artifact URL file:///etc/passwd', 'file:///etc/passwd', 'invalid'),
  urlCase('skill-url-blob', 'Artifact URL blob:https://hostile.example/…', 'blob:https://hostile.example/3f0b7c1e-0000-4000-8000-000000000000', 'invalid'),
  urlCase('skill-url-extension-scheme', 'Artifact URL chrome-extension://…/SKILL.md', 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/SKILL.md', 'invalid'),
  urlCase('skill-url-credentials', 'Artifact URL with user:password@', 'https://user:secret@hostile.example/skills/target/SKILL.md', 'invalid'),
  urlCase('skill-url-http-downgrade', 'https origin lists an http: artifact', 'http://hostile.example/skills/target/SKILL.md', 'invalid'),
  artifactRedirectCase(
    'skill-redirect-https-to-http',
    'SKILL.md redirects from https to http',
    { '/skills/target/SKILL.md': redirect('http://hostile.example/skills/target/SKILL.md') },
    'invalid/url-blocked',
  ),
  urlCase('skill-url-placeholder', 'Artifact URL with an unexpanded __PUBLIC_ORIGIN__ placeholder', '__PUBLIC_ORIGIN__/skills/target/SKILL.md', 'invalid'),
  urlCase('skill-url-template', 'Artifact URL with a {{base}} template', '{{base}}/skills/target/SKILL.md', 'invalid'),
  urlCase('skill-url-backslash', 'Artifact URL with backslashes', '\\\\evil\\share\\SKILL.md', 'invalid'),

  artifactRedirectCase(
    'skill-redirect-adds-credentials',
    'SKILL.md redirects to the same URL with user:password@',
    { '/skills/target/SKILL.md': redirect('https://admin:hunter2@hostile.example/skills/target/SKILL.md') },
    'invalid/url-blocked',
  ),
  artifactRedirectCase(
    'skill-redirect-to-javascript',
    'SKILL.md redirects to a javascript: URL',
    { '/skills/target/SKILL.md': redirect("javascript:fetch('/never/redirect-js')") },
    'invalid/url-blocked',
  ),
  artifactRedirectCase('skill-redirect-to-file', 'SKILL.md redirects to file:///etc/passwd', { '/skills/target/SKILL.md': redirect('file:///etc/passwd') }, 'invalid/url-blocked'),
  {
    id: 'llms-redirect-to-file',
    category: 'redirect-url',
    title: 'llms.txt redirects to file:///etc/passwd',
    site: () => withControl({ [PATH.llms]: redirect('file:///etc/passwd') }),
    expected: { sources: { 'llms-txt': 'absent/cross-origin-redirect' }, skillStatuses: { control: 'verified' } },
  },
  {
    id: 'index-redirect-same-origin-relative-urls',
    category: 'redirect-url',
    title: 'The index redirects within the origin; its ./relative URLs resolve against the final URL',
    site: () =>
      one({
        paths: {
          [PATH.index]: redirect('/v2/skills/index.json', 301),
          '/v2/skills/index.json': json(indexDoc([entryFor('moved', './moved/SKILL.md', skillText('moved'))])),
          '/v2/skills/moved/SKILL.md': markdown(skillText('moved')),
        },
      }),
    expected: {
      sources: { index: 'ok' },
      skillStatuses: { moved: 'verified' },
      custom: {
        text: 'resolved to /v2/skills/moved/SKILL.md',
        check: (ctx) => (skillOf(ctx.report, 'moved')?.url === 'https://hostile.example/v2/skills/moved/SKILL.md' ? null : `resolved to ${skillOf(ctx.report, 'moved')?.url ?? 'nothing'}`),
      },
    },
  },
  // --- allowed, but shown ---
  {
    id: 'skill-url-cross-host',
    category: 'redirect-url',
    title: 'Artifact on another public host',
    site: () => {
      const stage = indexSite([CONTROL]);
      stage.paths[PATH.index] = json(indexDoc([entryFor('control', '/skills/control/SKILL.md', CONTROL_BODY), entryFor('target', `${OTHER_ORIGIN}/cdn/target/SKILL.md`, TARGET_BODY)]));
      stage.paths['/cdn/target/SKILL.md'] = markdown(TARGET_BODY);
      return one(stage);
    },
    expected: {
      skillStatuses: { control: 'verified', target: 'verified' },
      diagnostics: ['cross-origin-artifact'],
      custom: {
        text: 'marked cross-origin (approval needs an extra confirmation)',
        check: (ctx) => {
          const s = skillOf(ctx.report, 'target');
          return firstProblem(s?.crossOrigin === true ? null : 'not marked cross-origin', s?.artifactHost === 'other.example' ? null : `host ${s?.artifactHost ?? 'null'}`);
        },
      },
    },
  },
  {
    id: 'loopback-origin-lists-loopback',
    category: 'redirect-url',
    title: 'A loopback origin (a publisher testing locally) lists an absolute loopback URL',
    origin: 'loopback',
    site: () =>
      one({
        paths: {
          [PATH.index]: (ctx) => json(indexDoc([entryFor('local', `${ctx.origin}/skills/local/SKILL.md`, skillText('local'))])),
          '/skills/local/SKILL.md': markdown(skillText('local')),
        },
      }),
    expected: { skillStatuses: { local: 'verified' } },
    browser: { include: true, assert: 'A local publisher origin is probed like any other; the skill is verified.', badge: 'count' },
  },
  {
    id: 'skill-urls-never-requested-when-refused',
    category: 'redirect-url',
    title: 'Refused URLs (placeholder, credentials, downgrade) cause no request at all',
    site: () => {
      const stage = indexSite([CONTROL]);
      stage.paths[PATH.index] = json(
        indexDoc([
          entryFor('control', '/skills/control/SKILL.md', CONTROL_BODY),
          entryFor('a', '__PUBLIC_ORIGIN__/skills/a/SKILL.md', TARGET_BODY),
          entryFor('b', 'https://u:p@hostile.example/skills/b/SKILL.md', TARGET_BODY),
          entryFor('c', 'http://hostile.example/skills/c/SKILL.md', TARGET_BODY),
        ]),
      );
      for (const n of ['a', 'b', 'c']) stage.paths[`/skills/${n}/SKILL.md`] = markdown(TARGET_BODY);
      return one(stage);
    },
    expected: {
      skillStatuses: { control: 'verified', a: 'invalid', b: 'invalid', c: 'invalid' },
      custom: {
        text: 'none of the refused artifacts is requested',
        check: (ctx) => {
          const hit = requestedPaths(ctx).filter((p) => /^\/(__PUBLIC_ORIGIN__\/)?skills\/[abc]\//.test(p));
          return hit.length > 0 ? `requested ${hit.join(', ')}` : null;
        },
      },
    },
  },
];
