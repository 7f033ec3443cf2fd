// Conformance over the shared corpus: every published llms.txt, index and SKILL.md goes
// through the parsers without throwing, and the cases FORMATS.md §11 and the corpus README
// name get their exact outcome.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseIndex } from '../../../lib/parse/index-json';
import { parseLlmsTxt } from '../../../lib/parse/llms-txt';
import { mergeCandidates } from '../../../lib/parse/merge';
import { parseFrontmatter } from '../../../lib/parse/skill-md';
import type { InvalidDocument, ParsedIndex } from '../../../lib/parse/index-json';
import type { ParsedLlmsTxt } from '../../../lib/parse/llms-txt';
import { CORPUS, LTS, SITES } from '../../support/corpus-sites';
import { codes } from './helpers';

const ORIGIN = 'https://example.test';
const CURRENT = `${ORIGIN}/.well-known/agent-skills/index.json`;
const LEGACY = `${ORIGIN}/.well-known/skills/index.json`;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

const ALL = walk(CORPUS);
const REAL_FILES = ALL.filter((p) => p.startsWith(`${SITES}/`));

function llms(path: string): ParsedLlmsTxt {
  return parseLlmsTxt(readFileSync(path), `${ORIGIN}/llms.txt`, ORIGIN);
}

function indexAt(path: string): ParsedIndex | InvalidDocument {
  const legacy = path.includes('/.well-known/skills/');
  return parseIndex(readFileSync(path), legacy ? LEGACY : CURRENT, ORIGIN, legacy ? 'legacy-index' : 'index');
}

function index(path: string): ParsedIndex {
  const r = indexAt(path);
  if ('invalid' in r) throw new Error(`${path}: ${r.code}`);
  return r;
}

const site = (folder: string, rel: string): string => join(SITES, folder, rel);
const refusals = (r: ParsedIndex): string[] => r.candidates.map((c) => (c.refusal ? `${c.refusal.status}:${c.refusal.code}` : 'ok'));

describe('corpus: every document parses', () => {
  const llmsFiles = REAL_FILES.filter((p) => p.endsWith('/llms.txt'));
  const indexFiles = REAL_FILES.filter((p) => /\/\.well-known\/(agent-skills|skills)\/index\.json$/.test(p));

  it('finds the real files', () => {
    expect(llmsFiles.length).toBeGreaterThanOrEqual(50);
    expect(indexFiles.length).toBeGreaterThanOrEqual(80);
  });

  it('parses every real llms.txt without throwing', () => {
    for (const path of llmsFiles) {
      const r = llms(path);
      expect(Array.isArray(r.candidates), relative(SITES, path)).toBe(true);
      for (const c of r.candidates) expect(c.url === null || c.url.startsWith('https://'), relative(SITES, path)).toBe(true);
    }
  });

  it('parses every real index (current and legacy path) as JSON with a skills array', () => {
    for (const path of indexFiles) {
      const r = indexAt(path);
      expect('invalid' in r, relative(SITES, path)).toBe(false);
    }
  });

  it('parses every llms.txt and index of the llms-txt-skills family and the RFC examples without throwing', () => {
    const others = ALL.filter((p) => !p.startsWith(`${SITES}/`));
    for (const path of others.filter((p) => p.endsWith('llms.txt'))) expect(llms(path)).toBeDefined();
    for (const path of others.filter((p) => p.endsWith('.json'))) expect(indexAt(path)).toBeDefined();
  });

  it('only corezoid has a real ## Skills section', () => {
    const withSection = llmsFiles.filter((p) => llms(p).hasSkillsSection).map((p) => relative(SITES, p));
    expect(withSection).toEqual(['corezoid__corezoid-ai-plugin__public/llms.txt']);
  });
});

describe('corpus: llms.txt cases (FORMATS.md §11)', () => {
  it('corezoid: 23 cross-host raw.githubusercontent.com skills, no digest, no refusal', () => {
    const r = llms(site('corezoid__corezoid-ai-plugin__public', 'llms.txt'));
    expect(r.candidates).toHaveLength(23);
    expect(r.diagnostics).toEqual([]);
    for (const c of r.candidates) {
      expect(c.url).toMatch(/^https:\/\/raw\.githubusercontent\.com\/corezoid\/corezoid-ai-plugin\/main\/plugins\/corezoid\/skills\/[a-z-]+\/SKILL\.md$/);
      expect(c).toMatchObject({ refusal: null, declared: [], type: 'skill-md' });
      expect(c.url?.endsWith(`/skills/${c.name ?? ''}/SKILL.md`)).toBe(true);
    }
    expect(r.candidates[0]).toMatchObject({ name: 'corezoid', description: 'Universal Corezoid assistant', position: 7 });
  });
  it('typogrammar: "#### Writing Skills" is not a section', () => {
    const r = llms(site('Elomami1976__typogrammar__public', 'llms.txt'));
    expect(r).toMatchObject({ hasSkillsSection: false, candidates: [], diagnostics: [] });
  });
  it('awesome-windows (prompt-injection paragraph, no headings) and MarkMew (text before the H1): zero skills', () => {
    expect(llms(site('0PandaDEV__awesome-windows', 'llms.txt')).candidates).toEqual([]);
    expect(llms(site('MarkMew__MarkMew.github.io', 'llms.txt')).candidates).toEqual([]);
  });
});

describe('corpus: index cases (FORMATS.md §11)', () => {
  it('CNOCTAVE: the legacy index has a BOM and parses; ./relative resolves against its directory', () => {
    const bytes = readFileSync(site('CNOCTAVE__chinese-novelist-skill-cnoctave', '.well-known/skills/index.json'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const r = index(site('CNOCTAVE__chinese-novelist-skill-cnoctave', '.well-known/skills/index.json'));
    expect(r.shape).toBe('v0.2');
    expect(r.candidates).toHaveLength(1);
    expect(r.candidates[0]?.url?.startsWith(`${ORIGIN}/`)).toBe(true);
    expect(index(site('CNOCTAVE__chinese-novelist-skill-cnoctave', '.well-known/agent-skills/index.json')).candidates).toHaveLength(1);
  });
  it('Get-Coral: tabs, skills: [] → valid, empty', () => {
    expect(index(site('Get-Coral__getcoral.dev__public', '.well-known/agent-skills/index.json'))).toMatchObject({ shape: 'empty', candidates: [] });
  });
  it('Backpac cairn-cli: no final newline is fine', () => {
    expect(refusals(index(site('Backpac-Inc__cairn-cli', '.well-known/agent-skills/index.json')))).toEqual(['ok']);
  });
  it.each(['formatjs__formatjs__docs_public', 'JSONbored__metagraphed__public'])('%s: unknown $schema warns and entries still process', (folder) => {
    const r = index(site(folder, '.well-known/agent-skills/index.json'));
    expect(codes(r.diagnostics)).toContain('index-unknown-schema');
    expect(r.candidates.length).toBeGreaterThan(0);
  });
  it('peixl: unknown $schema on a v0.1 index', () => {
    const r = index(site('peixl__ifq-design-skills', '.well-known/agent-skills/index.json'));
    expect(r.shape).toBe('v0.1');
    expect(codes(r.diagnostics)).toContain('index-unknown-schema');
  });
  it('shape comes from content: v0.1 at the current path (listmonk), URL entries at the legacy path (wzrd-velocity)', () => {
    const listmonk = index(site('mikeckennedy__listmonk__docs', '.well-known/agent-skills/index.json'));
    expect(listmonk.shape).toBe('v0.1');
    expect(listmonk.candidates[0]?.url).toMatch(/^https:\/\/example\.test\/\.well-known\/agent-skills\/[^/]+\/SKILL\.md$/);
    expect(listmonk.candidates[0]?.refusal).toBeNull();
    expect(index(site('twzrd-sol__wzrd-velocity', '.well-known/skills/index.json')).shape).toBe('v0.2');
  });
  it.each(['Fliplet__fliplet-cli__docs', 'OlegYakushin__MySite'])('%s: bare sha256 is a declared digest', (folder) => {
    const r = index(site(folder, '.well-known/agent-skills/index.json'));
    for (const c of r.candidates) {
      expect(c.refusal).toBeNull();
      expect(c.declared.map((d) => d.field)).toEqual(['index-sha256']);
      expect(c.type).toBe('skill-md');
    }
  });
  it('Abdoessam0: invented types give unsupported; PLACEHOLDER_DIGEST is still reported invalid', () => {
    const path = site('Abdoessam0__arabic-growth-hub__public', '.well-known/agent-skills/index.json');
    const r = index(path);
    expect(refusals(r)).toEqual(Array(5).fill('unsupported:index-type-unsupported'));
    for (const c of r.candidates) expect(codes(c.diagnostics)).toContain('index-sha256-invalid');
    // Without the invented types, the placeholder digest alone makes each entry invalid.
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { skills: Record<string, unknown>[] };
    for (const e of doc.skills) delete e.type;
    const again = parseIndex(new TextEncoder().encode(JSON.stringify(doc)), CURRENT, ORIGIN, 'index');
    if ('invalid' in again) throw new Error('invalid');
    expect(refusals(again)).toEqual(Array(5).fill('invalid:index-sha256-invalid'));
  });
  it('faberlang assets: __PUBLIC_ORIGIN__ URLs are invalid with no request', () => {
    const r = index(site('faberlang__faberlang.dev__assets', '.well-known/agent-skills/index.json'));
    expect(refusals(r)).toEqual(Array(9).fill('invalid:url-placeholder'));
    expect(r.candidates.every((c) => c.url === null)).toBe(true);
  });
  it.each([
    ['233GHOST__Tedbuy__public', 1],
    ['KYE-Protocol__kye-protocol.github.io', 8],
    ['Iamdreaming__yinshiji-site__public', 7],
  ])('%s: invented type → unsupported', (folder, count) => {
    expect(refusals(index(site(folder, '.well-known/agent-skills/index.json')))).toEqual(Array(count).fill('unsupported:index-type-unsupported'));
  });
  it('HawkinsOperations and CrossLoop: no url, no files → unsupported, named from id/label', () => {
    const hawkins = index(site('HawkinsOperations__hawkinsoperations-website__public', '.well-known/agent-skills/index.json'));
    expect(refusals(hawkins).every((s) => s === 'unsupported:index-custom-shape')).toBe(true);
    expect(hawkins.candidates.every((c) => c.name !== null)).toBe(true);
    expect(refusals(index(site('CrossLoop__crossloop.github.io', '.well-known/agent-skills/index.json')))).toEqual(['unsupported:index-custom-shape']);
  });
  it.each([
    ['RussBrown00__agent-skills', '.well-known/skills/index.json'],
    ['lumitive__lumi-style', '.well-known/skills/index.json'],
    ['Shawnchee__preflight-skill', '.well-known/skills/index.json'],
    ['AHMEDELKELAWY__arabiyapath__public', '.well-known/agent-skills/index.json'],
  ])('%s: path-only or tool-style entries → unsupported', (folder, rel) => {
    const r = index(site(folder, rel));
    expect(r.shape).toBe('other');
    expect(refusals(r).every((s) => s === 'unsupported:index-custom-shape')).toBe(true);
  });
  it('worktrunk: ./worktrunk/SKILL.md resolves under /.well-known/agent-skills/', () => {
    const r = index(site('max-sixty__worktrunk__docs_public', '.well-known/agent-skills/index.json'));
    expect(r.candidates[0]?.url).toBe(`${ORIGIN}/.well-known/agent-skills/worktrunk/SKILL.md`);
    expect(r.candidates[0]?.declared).toHaveLength(1);
  });
  it('hull: the .tar.gz entry is an archive with its digest', () => {
    const r = index(site('rindag-devs__hull__docs', '.well-known/agent-skills/index.json'));
    const archive = r.candidates.find((c) => c.type === 'archive');
    expect(archive?.url).toMatch(/author-hull-problems\.tar\.gz$/);
    expect(archive?.declared[0]?.hex.startsWith('eec9f10b')).toBe(true);
  });
  it('v0.1 path rules: corezoid (absolute URLs), gmx (index-relative paths), dstack (lowercase skill.md) are invalid and name the rule', () => {
    const corezoid = index(site('corezoid__corezoid-ai-plugin__public', '.well-known/skills/index.json'));
    expect(refusals(corezoid)).toEqual(Array(23).fill('invalid:v01-file-not-relative'));
    const gmx = index(site('gmx-io__gmx-ai', '.well-known/skills/index.json'));
    expect(refusals(gmx)).toEqual(['invalid:v01-files-no-skill-md', 'invalid:v01-files-no-skill-md']);
    const dstack = index(site('dstackai__dstackai.github.io', '.well-known/skills/index.json'));
    expect(refusals(dstack)).toEqual(['invalid:v01-files-no-skill-md']);
    for (const c of [...corezoid.candidates, ...gmx.candidates, ...dstack.candidates]) expect(c.refusal?.message).toMatch(/v0\.1 entry: .*files/);
  });
  it('v0.1 entries that follow the rules are fetched from <name>/SKILL.md (cloudflare docs)', () => {
    const r = index(site('cloudflare__cloudflare-docs__public', '.well-known/skills/index.json'));
    expect(r.shape).toBe('v0.1');
    for (const c of r.candidates) {
      expect(c.refusal).toBeNull();
      expect(c.url).toBe(`${ORIGIN}/.well-known/skills/${encodeURIComponent(c.name ?? '')}/SKILL.md`);
    }
  });
});

describe('corpus: discovery RFC examples', () => {
  const rfc = (name: string): ParsedIndex | InvalidDocument => parseIndex(readFileSync(join(CORPUS, 'discovery-rfc', name)), CURRENT, ORIGIN, 'index');
  const ok = (name: string): ParsedIndex => {
    const r = rfc(name);
    if ('invalid' in r) throw new Error(name);
    return r;
  };
  it.each(['v0.2.0_index-format.example.json', 'v0.2.0_discovery-index.example.json', 'agentskills-pr254_versioned-index-v1.2.0.example.json'])(
    '%s: truncated digests make every entry invalid',
    (name) => {
      const r = ok(name);
      expect(r.shape).toBe('v0.2');
      expect(r.diagnostics).toEqual([]);
      expect(r.candidates.length).toBeGreaterThan(0);
      expect(refusals(r).every((s) => s === 'invalid:index-digest-invalid')).toBe(true);
    },
  );
  it('the versioned index resolves wrangler.tar.gz as an archive next to the index', () => {
    expect(ok('agentskills-pr254_versioned-index-v1.2.0.example.json').candidates[0]).toMatchObject({
      type: 'archive',
      url: `${ORIGIN}/.well-known/agent-skills/wrangler.tar.gz`,
    });
  });
  it('v0.1.0 example: v0.1 shape, fetchable, no digest', () => {
    const r = ok('v0.1.0_index.example.json');
    expect(r.shape).toBe('v0.1');
    expect(refusals(r)).toEqual(['ok', 'ok']);
    expect(r.candidates.map((c) => c.url)).toEqual([`${ORIGIN}/.well-known/agent-skills/wrangler/SKILL.md`, `${ORIGIN}/.well-known/agent-skills/code-review/SKILL.md`]);
  });
  it.each(['draft-2026-02-13_index-format.example.json', 'draft-2026-02-13_index-with-digests-and-package.example.json'])('%s: files of objects → unsupported', (name) => {
    const r = ok(name);
    expect(r.shape).toBe('other');
    expect(refusals(r).every((s) => s === 'unsupported:index-draft-files-objects')).toBe(true);
  });
  it('the client lockfile is not an index', () => {
    expect(rfc('agentskills-pr254_client-lockfile.example.json')).toMatchObject({ invalid: true, code: 'index-no-skills-array' });
  });
});

describe('corpus: llms-txt-skills publishers, merged', () => {
  const pair = (root: string, llmsRel = 'llms.txt', indexRel = '.well-known/agent-skills/index.json') => {
    const l = parseLlmsTxt(readFileSync(join(root, llmsRel)), `${ORIGIN}/llms.txt`, ORIGIN);
    const i = parseIndex(readFileSync(join(root, indexRel)), CURRENT, ORIGIN, 'index');
    if ('invalid' in i) throw new Error('invalid index');
    return { l, i, merged: mergeCandidates([...l.candidates, ...i.candidates]) };
  };

  it('root site: two skills, inline sha256 equals index sha256, signed index', () => {
    const { l, i, merged } = pair(LTS);
    expect(l.candidates.map((c) => c.name)).toEqual(['placeholder', 'api-client']);
    expect(l.diagnostics).toEqual([]);
    expect(i).toMatchObject({ signingAlg: 'ed25519', signingKey: '1e1Qc4KtZ1PiR8McDESrvmxZVCYqdsrQOiKSFgKjJNc=', shape: 'v0.2' });
    expect(merged).toHaveLength(2);
    for (const m of merged) {
      expect(m.disagree).toBe(false);
      expect(m.refusal).toBeNull();
      expect(m.declared.map((d) => d.field)).toEqual(['inline-sha256', 'index-sha256']);
      expect(m.signature).toMatch(/==$/);
    }
    expect(merged[0]?.declared[0]?.hex).toBe('f427124e22c7bfc3d45271081e2d5eff3b1f9d740f9685748f9d4abd99dd03df');
    expect(merged[0]?.url).toBe(`${ORIGIN}/skills/placeholder/SKILL.md`);
  });

  it('the discovery-rfc wild copy is the root index', () => {
    const wild = parseIndex(readFileSync(join(CORPUS, 'discovery-rfc/wild/MauricioPerera_llms-txt-skills_.well-known_agent-skills_index.json')), CURRENT, ORIGIN, 'index');
    expect(wild).toEqual(index(join(LTS, '.well-known/agent-skills/index.json')));
  });

  it('docs site: four executable skills; digest, sha256 and inline agree; skills-memory ignored', () => {
    const { l, i, merged } = pair(join(LTS, 'docs'));
    expect(l.diagnostics).toEqual([]);
    expect(l.candidates).toHaveLength(4);
    for (const c of l.candidates) expect(c.tool).toMatch(/^\/skills\/[a-z_]+\/tool\.js$/);
    expect(i.schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(merged).toHaveLength(4);
    for (const m of merged) {
      expect(m.declared.map((d) => d.field)).toEqual(['inline-sha256', 'index-digest', 'index-sha256']);
      expect(m.disagree).toBe(false);
      expect(m.candidates.every((c) => c.toolSha256 !== null)).toBe(true);
    }
  });

  it('root-0735736-wrong-hash overlay: api-client disagrees, placeholder does not', () => {
    const { merged } = pair(LTS, '_variants/root-0735736-wrong-hash/llms.txt');
    expect(merged.map((m) => [m.url?.split('/')[4], m.disagree])).toEqual([
      ['placeholder', false],
      ['api-client', true],
    ]);
  });

  it('key-rotated-attacker: placeholder disagrees; the new key is recorded verbatim', () => {
    const { i, merged } = pair(join(LTS, '_synthetic/key-rotated-attacker'));
    expect(i.signingKey).toBe('4NCAqA5Z5fxSiQAO/QZw0LbrAmBPLKfruL874xG5fYg=');
    expect(merged.find((m) => m.url?.includes('/placeholder/'))?.disagree).toBe(true);
    expect(merged.find((m) => m.url?.includes('/api-client/'))?.disagree).toBe(false);
  });

  it('aggregator: eight skills, search_knowledge three times (never merged), scopes and a digest-less site_facts', () => {
    const l = parseLlmsTxt(readFileSync(join(LTS, '_external/mauricioperera.github.io/llms.txt')), 'https://mauricioperera.github.io/llms.txt', 'https://mauricioperera.github.io');
    expect(l.diagnostics).toEqual([]);
    expect(l.candidates).toHaveLength(8);
    const merged = mergeCandidates(l.candidates);
    expect(merged).toHaveLength(8);
    const search = merged.filter((m) => m.candidates[0]?.name === 'search_knowledge');
    expect(search).toHaveLength(3);
    for (const m of search) expect(codes(m.diagnostics)).toContain('duplicate-name');
    expect(l.candidates.map((c) => c.scope)).toEqual([null, null, null, null, 'kdd', 'kdd', 'registry', 'registry']);
    expect(l.candidates[0]).toMatchObject({ name: 'site_facts', declared: [], tool: '/skills/site_facts/tool.js' });
  });
});

describe('corpus: SKILL.md frontmatter', () => {
  const skillFiles = ALL.filter((p) => /(^|\/)(SKILL\.md|[^/]*\.SKILL\.md|SKILL\.txt|[^/]*\.skill\.md)$/.test(p));

  it('parses every SKILL.md in the corpus without throwing', () => {
    expect(skillFiles.length).toBeGreaterThan(200);
    for (const path of skillFiles) {
      const r = parseFrontmatter(readFileSync(path));
      expect(r.data === null || typeof r.data === 'object').toBe(true);
    }
  });

  it('real files: about 23 without frontmatter, 9 YAML errors (plain scalars with ": ")', () => {
    const real = skillFiles.filter((p) => p.startsWith(`${SITES}/`));
    const missing: string[] = [];
    const yamlErrors: string[] = [];
    for (const path of real) {
      const c = codes(parseFrontmatter(readFileSync(path)).diagnostics);
      if (c.includes('frontmatter-missing')) missing.push(relative(SITES, path));
      if (c.includes('frontmatter-yaml-error')) yamlErrors.push(relative(SITES, path));
    }
    expect(missing.length).toBeGreaterThanOrEqual(18);
    expect(missing.length).toBeLessThanOrEqual(28);
    expect(missing).toEqual(
      expect.arrayContaining(['PlakarKorp__plakar.io__static/.well-known/agent-skills/install-plakar/SKILL.md', 'Project-HAMi__website__static/.well-known/agent-skills/hami-docs/SKILL.md']),
    );
    expect(yamlErrors).toHaveLength(9);
    expect(yamlErrors.filter((p) => p.startsWith('Fliplet__'))).toHaveLength(6);
  });

  it('the agentskills spec examples parse with name and description', () => {
    for (const name of ['spec_minimal.SKILL.md', 'spec_with-optional-fields.SKILL.md']) {
      const r = parseFrontmatter(readFileSync(join(CORPUS, 'agentskills-spec', name)));
      expect(r.name).toMatch(/^[a-z0-9-]+$/);
      expect(r.description).not.toBeNull();
    }
  });

  it('the aggregator site_facts SKILL.md has no frontmatter; the BOM-prefixed placeholder still parses', () => {
    expect(codes(parseFrontmatter(readFileSync(join(LTS, '_external/mauricioperera.github.io/skills/site_facts/SKILL.md'))).diagnostics)).toEqual(['frontmatter-missing']);
    const bom = parseFrontmatter(readFileSync(join(LTS, '_synthetic/bom-prefixed/skills/placeholder/SKILL.md')));
    const plain = parseFrontmatter(readFileSync(join(LTS, 'skills/placeholder/SKILL.md')));
    const crlf = parseFrontmatter(readFileSync(join(LTS, '_synthetic/crlf-served/skills/placeholder/SKILL.md')));
    expect(bom.name).toBe('placeholder');
    expect(bom.data).toEqual(plain.data);
    expect(crlf.data).toEqual(plain.data);
  });
});
