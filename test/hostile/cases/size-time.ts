// Size and time: documents over their caps, bodies that never end or drip, servers that never
// answer, huge indexes, deep nesting, very long lines.
import { CONTROL, CONTROL_BODY, KiB, MiB, firstProblem, one, requestedPaths, withControl } from './common';
import { PATH, indexDoc, indexSite, json, llmsTxt, markdown, rawDigest, skillText, text } from '../site-kit';
import { zipSync } from 'fflate';
import type { HostileCase, StatusExpectation } from '../types';

const SLOW_MS = 16_000;

function filler(size: number, line = 'Filler text of a careless publisher.\n'): string {
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}

const skillOver = (): string => skillText('big', filler(256 * KiB + 1));

/** Three stored (uncompressed) zips of 12 MiB listed by the index: 36 MiB, over the 32 MiB a probe may download. */
function bigArchives(): ReturnType<typeof one> {
  const paths: Record<string, ReturnType<typeof json>> = {};
  const entries: Record<string, unknown>[] = [];
  for (const name of ['one', 'two', 'three']) {
    const md = new TextEncoder().encode(`---\nname: ${name}\ndescription: A big archive.\n---\n`);
    const zip = zipSync({ 'SKILL.md': [md, { level: 0 }], 'blob.bin': [new Uint8Array(12 * MiB).fill(7), { level: 0 }] });
    paths[`/skills/${name}.zip`] = { kind: 'bytes', body: zip, contentType: 'application/zip' };
    entries.push({ name, type: 'archive', description: 'A big archive.', url: `/skills/${name}.zip`, digest: `sha256:${rawDigest(zip)}` });
  }
  return one({ paths: { ...paths, [PATH.index]: json(indexDoc(entries)) } });
}

export const SIZE_TIME_CASES: HostileCase[] = [
  {
    id: 'archives-over-probe-download-budget',
    category: 'size-time',
    title: 'Three archives of 12 MiB (36 MiB together, each within its 16 MiB cap)',
    site: bigArchives,
    expected: {
      skillStatuses: ['verified/verified', 'verified/verified', 'fetch-failed/probe-budget'],
      diagnostics: ['probe-budget-used'],
      custom: {
        text: 'each archive requested at most once',
        check: (ctx) => {
          const paths = requestedPaths(ctx).filter((p) => p.endsWith('.zip'));
          return new Set(paths).size === paths.length ? null : `requested ${paths.join(', ')}`;
        },
      },
    },
  },
  {
    id: 'llms-over-cap-declared-length',
    category: 'size-time',
    title: 'llms.txt of 1 MiB + 1 byte with a Content-Length',
    site: () => withControl({ [PATH.llms]: text(llmsTxt([], { after: filler(MiB) })) }),
    expected: { sources: { 'llms-txt': 'too-large' }, skillStatuses: { control: 'verified' }, diagnostics: ['document-too-large'] },
    browser: { include: true, assert: 'The popup lists the control skill as verified; the diagnostics show llms.txt as too-large.', badge: 'count' },
  },
  {
    id: 'llms-over-cap-chunked',
    category: 'size-time',
    title: 'llms.txt over 1 MiB sent chunked, without a Content-Length',
    site: () => withControl({ [PATH.llms]: text(llmsTxt([], { after: filler(MiB + 10) }), undefined, { length: 'omit' }) }),
    expected: { sources: { 'llms-txt': 'too-large' }, skillStatuses: { control: 'verified' }, diagnostics: ['document-too-large'] },
  },
  {
    id: 'llms-endless-body',
    category: 'size-time',
    title: 'llms.txt whose body never ends',
    site: () => withControl({ [PATH.llms]: { kind: 'endless' } }),
    expected: {
      sources: { 'llms-txt': 'too-large' },
      skillStatuses: { control: 'verified' },
      custom: {
        text: 'stopped at the cap, well before the timeout',
        check: (ctx) => (ctx.elapsedMs > 8000 ? `took ${ctx.elapsedMs} ms` : null),
      },
    },
  },
  {
    id: 'llms-slow-drip',
    category: 'size-time',
    title: 'llms.txt dripping one byte per second',
    slowMs: SLOW_MS,
    site: () => withControl({ [PATH.llms]: { kind: 'drip', prefix: '# Slow\n' } }),
    expected: { sources: { 'llms-txt': 'transient/timeout' }, skillStatuses: { control: 'verified' }, diagnostics: ['document-unavailable'] },
  },
  {
    id: 'index-never-answers',
    category: 'size-time',
    title: 'The index request is accepted and never answered',
    slowMs: SLOW_MS,
    site: () =>
      one({
        paths: {
          [PATH.index]: { kind: 'never' },
          [PATH.llms]: text(llmsTxt([{ title: 'control', url: '/skills/control/SKILL.md', meta: { sha256: rawDigest(CONTROL_BODY) } }])),
          '/skills/control/SKILL.md': markdown(CONTROL_BODY),
        },
      }),
    expected: {
      sources: { index: 'transient/timeout', 'legacy-index': 'not-requested' },
      skillStatuses: { control: 'verified' },
      diagnostics: ['document-unavailable'],
    },
  },
  {
    id: 'index-over-cap-declared-length',
    category: 'size-time',
    title: 'Index of 256 KiB + 1 byte with a Content-Length',
    site: () =>
      one({
        paths: {
          [PATH.index]: json(JSON.stringify(indexDoc([], { extra: { padding: filler(256 * KiB) } }))),
          [PATH.llms]: text(llmsTxt([{ title: 'control', url: '/skills/control/SKILL.md', meta: { sha256: rawDigest(CONTROL_BODY) } }])),
          '/skills/control/SKILL.md': markdown(CONTROL_BODY),
        },
      }),
    expected: { sources: { index: 'too-large', 'legacy-index': 'not-requested' }, skillStatuses: { control: 'verified' }, diagnostics: ['document-too-large'] },
  },
  {
    id: 'index-over-cap-chunked',
    category: 'size-time',
    title: 'Index over 256 KiB sent chunked, without a Content-Length',
    site: () =>
      one({
        paths: {
          [PATH.index]: json(JSON.stringify(indexDoc([], { extra: { padding: filler(300 * KiB) } })), { length: 'omit' }),
          [PATH.llms]: text(llmsTxt([{ title: 'control', url: '/skills/control/SKILL.md', meta: { sha256: rawDigest(CONTROL_BODY) } }])),
          '/skills/control/SKILL.md': markdown(CONTROL_BODY),
        },
      }),
    expected: { sources: { index: 'too-large' }, skillStatuses: { control: 'verified' } },
  },
  {
    id: 'index-gzip-encoding-bomb',
    category: 'size-time',
    title: 'Index served with Content-Encoding gzip that inflates to 8 MiB',
    site: () =>
      one({
        paths: {
          [PATH.index]: json(JSON.stringify(indexDoc([], { extra: { padding: ' '.repeat(8 * MiB) } })), { encoding: 'gzip' }),
          [PATH.llms]: text(llmsTxt([{ title: 'control', url: '/skills/control/SKILL.md', meta: { sha256: rawDigest(CONTROL_BODY) } }])),
          '/skills/control/SKILL.md': markdown(CONTROL_BODY),
        },
      }),
    expected: { sources: { index: 'too-large' }, skillStatuses: { control: 'verified' } },
  },
  {
    id: 'skill-over-cap-declared-length',
    category: 'size-time',
    title: 'SKILL.md of 256 KiB + more with a Content-Length',
    site: () => one(indexSite([{ name: 'big', body: skillOver() }])),
    expected: { skillStatuses: { big: 'too-large/fetch-too-large' } },
    browser: { include: true, assert: 'The popup shows the skill as too-large and offers no approve button.' },
  },
  {
    id: 'skill-over-cap-chunked',
    category: 'size-time',
    title: 'SKILL.md over 256 KiB sent chunked, without a Content-Length',
    site: () => {
      const body = skillOver();
      return one(indexSite([{ name: 'big', body, reply: markdown(body, { length: 'omit' }) }]));
    },
    expected: { skillStatuses: { big: 'too-large/fetch-too-large' } },
  },
  {
    id: 'skill-endless-body',
    category: 'size-time',
    title: 'SKILL.md whose body never ends',
    site: () => one(indexSite([{ name: 'endless', reply: { kind: 'endless', contentType: 'text/markdown' } }])),
    expected: { skillStatuses: { endless: 'too-large/fetch-too-large' } },
  },
  {
    id: 'skill-gzip-encoding-bomb',
    category: 'size-time',
    title: 'SKILL.md with Content-Encoding gzip that inflates to 8 MiB',
    site: () => {
      const body = skillText('bomb', ' '.repeat(8 * MiB));
      return one(indexSite([{ name: 'bomb', body, reply: markdown(body, { encoding: 'gzip' }) }]));
    },
    expected: { skillStatuses: { bomb: 'too-large/fetch-too-large' } },
  },
  {
    id: 'skill-slow-drip',
    category: 'size-time',
    title: 'SKILL.md dripping one byte per second',
    slowMs: SLOW_MS,
    site: () => one(indexSite([CONTROL, { name: 'drip', reply: { kind: 'drip', contentType: 'text/markdown', prefix: '---\n' } }])),
    expected: { skillStatuses: { control: 'verified', drip: 'fetch-failed/fetch-transient' } },
  },
  {
    id: 'skill-never-answers',
    category: 'size-time',
    title: 'The SKILL.md request is accepted and never answered',
    slowMs: SLOW_MS,
    site: () => one(indexSite([CONTROL, { name: 'silent', reply: { kind: 'never' } }])),
    expected: { skillStatuses: { control: 'verified', silent: 'fetch-failed/fetch-transient' } },
  },
  {
    id: 'skill-truncated-body',
    category: 'size-time',
    title: 'SKILL.md connection cut short of its Content-Length',
    site: () => {
      const body = skillText('cut');
      return one(indexSite([{ name: 'cut', body, reply: { kind: 'truncated', body: body.slice(0, 40), declaredLength: body.length } }]));
    },
    expected: { skillStatuses: { cut: 'fetch-failed/fetch-transient' } },
  },
  {
    id: 'index-10000-skills',
    category: 'size-time',
    title: '10,000 skills in one index',
    site: () => {
      const entries = Array.from({ length: 10_000 }, (_, i) => ({ url: `/s/${i}` }));
      const paths: Record<string, ReturnType<typeof markdown>> = {};
      for (let i = 0; i < 10_000; i++) paths[`/s/${i}`] = markdown(skillText(`s-${i}`));
      paths[PATH.index] = json(JSON.stringify(indexDoc(entries)));
      return one({ paths });
    },
    expected: {
      skillStatuses: [...Array<StatusExpectation>(64).fill('unverified/unverified-no-digest'), ...Array<StatusExpectation>(10_000 - 64).fill('fetch-failed/skill-limit')],
      custom: {
        text: 'at most 64 artifact requests',
        check: (ctx) => {
          const n = requestedPaths(ctx).filter((p) => p.startsWith('/s/')).length;
          return n > 64 ? `${n} artifact requests` : null;
        },
      },
    },
  },
  {
    id: 'llms-10000-skills',
    category: 'size-time',
    title: '10,000 skills in one llms.txt',
    site: () => {
      const items = Array.from({ length: 10_000 }, (_, i) => ({ title: `s${i}`, url: `/s/${i}` }));
      return one({ paths: { [PATH.llms]: text(llmsTxt(items)) } });
    },
    expected: {
      skillCount: 10_000,
      custom: {
        text: '64 fetched (404 here), 9,936 not fetched (skill-limit); at most 64 artifact requests',
        check: (ctx) => {
          const limited = ctx.report.skills.filter((s) => s.statusCode === 'skill-limit').length;
          const fetched = ctx.report.skills.filter((s) => s.statusCode === 'fetch-not-found').length;
          const n = requestedPaths(ctx).filter((p) => p.startsWith('/s/')).length;
          return firstProblem(limited !== 9_936 ? `${limited} skill-limit` : null, fetched !== 64 ? `${fetched} fetched` : null, n > 64 ? `${n} artifact requests` : null);
        },
      },
    },
  },
  {
    id: 'index-deeply-nested-json',
    category: 'size-time',
    title: 'Index with 100,000 levels of nested arrays inside an entry',
    site: () => {
      const stage = indexSite([CONTROL]);
      // Written as text: serializing the deep value would itself overflow the stack.
      const entry = JSON.stringify({ name: 'control', type: 'skill-md', url: '/skills/control/SKILL.md', digest: `sha256:${rawDigest(CONTROL_BODY)}` });
      const deep = entry.slice(0, -1) + ',"metadata":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
      stage.paths[PATH.index] = json(`{"skills":[${deep}]}`);
      return one(stage);
    },
    expected: { sources: { index: 'ok' }, skillStatuses: { control: 'verified' } },
  },
  {
    id: 'frontmatter-deeply-nested',
    category: 'size-time',
    title: 'SKILL.md frontmatter with 5,000 levels of nested flow sequences',
    site: () => {
      const body = `---\nname: nested\ndescription: deep\nmetadata: ${'['.repeat(5000)}${']'.repeat(5000)}\n---\n\n# nested\n`;
      return one(indexSite([{ name: 'nested', body }]));
    },
    expected: { skillStatuses: { nested: 'verified' } },
  },
  {
    id: 'llms-1mib-single-line',
    category: 'size-time',
    title: 'llms.txt that is one line of exactly 1 MiB',
    site: () => {
      const head = '## Skills\n- [control](/skills/control/SKILL.md): ';
      const tail = ` <!-- skill: {"sha256":"${rawDigest(CONTROL_BODY)}"} -->`;
      const pad = MiB - head.length - tail.length;
      return one({ paths: { [PATH.llms]: text(head + 'x'.repeat(pad) + tail), '/skills/control/SKILL.md': markdown(CONTROL_BODY) } });
    },
    expected: { sources: { 'llms-txt': 'ok' }, skillStatuses: { control: 'verified' } },
  },
  {
    id: 'skill-single-line-near-cap',
    category: 'size-time',
    title: 'SKILL.md that is one 250 KiB line',
    site: () => one(indexSite([{ name: 'oneline', body: `# oneline ${'word '.repeat(50 * KiB)}` }])),
    expected: {
      skillStatuses: { oneline: 'verified' },
      diagnostics: ['frontmatter-missing'],
      custom: {
        text: 'advisory long-line flag',
        check: (ctx) => (ctx.report.skills[0]?.advisory.some((a) => a.code === 'long-line') ? null : 'no long-line advisory'),
      },
    },
  },
  {
    id: 'skill-1mib-single-line',
    category: 'size-time',
    title: 'SKILL.md that is one 1 MiB line',
    site: () => one(indexSite([{ name: 'huge-line', body: 'y'.repeat(MiB) }])),
    expected: { skillStatuses: { 'huge-line': 'too-large' } },
  },
  {
    id: 'llms-pathological-brackets',
    category: 'size-time',
    title: 'llms.txt with a 1 MiB line of unbalanced `- [` and `](` (backtracking bait)',
    site: () => withControl({ [PATH.llms]: text('## Skills\n- [' + '](('.repeat(Math.floor((MiB - 20) / 3))) }),
    expected: {
      skillStatuses: { control: 'verified' },
      custom: { text: 'parsed in under 5 s', check: (ctx) => (ctx.elapsedMs > 5000 ? `took ${ctx.elapsedMs} ms` : null) },
    },
  },
  {
    id: 'index-empty-body',
    category: 'size-time',
    title: 'Index answering 200 with an empty body',
    site: () =>
      one({
        paths: {
          [PATH.index]: json(''),
          [PATH.llms]: text(llmsTxt([{ title: 'control', url: '/skills/control/SKILL.md', meta: { sha256: rawDigest(CONTROL_BODY) } }])),
          '/skills/control/SKILL.md': markdown(CONTROL_BODY),
        },
      }),
    expected: { sources: { index: 'invalid', 'legacy-index': 'not-requested' }, skillStatuses: { control: 'verified' }, diagnostics: ['index-invalid'] },
  },
];
