// Every row of the llms-txt-skills table in the corpus README ("Expected outcomes"), with the
// folders served by the loopback server and the engine running over real HTTP.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerOptions, TestServer } from '../../support/server';
import { serversClosedAfterEach } from '../../support/test-servers';
import { LTS, mappedFetch } from '../../support/corpus-sites';
import { approveSkill, harness, type Harness } from '../../support/engine-harness';
import type { OriginReport, SkillReport, SkillStatus } from '../../../lib/types';

const FP_1E1 = 'SHA256:e4FatXC4OoswF/nA5G1OZQmhtDBuNVoNZ/zepczyMm0';
const FP_RMM5 = 'SHA256:wPn1QeA38RpbeEWpToRHO+ytNknUK/P5g5jvjW0IlM8';
const FP_4NCA = 'SHA256:OUEYTtP/6s31xtlJnS8KiLCvaQop1y0qbApXSX4YRzc';
const GEN_A = join(LTS, '_variants/docs-genA');
const DOCS = join(LTS, 'docs');
const ORIGIN_C = join(LTS, '_external/mauricioperera.github.io');

const serve = serversClosedAfterEach();
const tally: Record<string, number> = {};
let skillCount = 0;

afterAll(() => {
  console.log(`conformance llms-txt-skills: ${skillCount} skill verdicts checked; by status ${JSON.stringify(tally)}`);
});

function count(r: OriginReport): OriginReport {
  for (const s of r.skills) {
    tally[s.status] = (tally[s.status] ?? 0) + 1;
    skillCount += 1;
  }
  return r;
}

function at(r: OriginReport, path: string): SkillReport {
  const s = r.skills.find((k) => k.url !== null && new URL(k.url).pathname === path);
  if (!s) throw new Error(`no skill at ${path}; have ${r.skills.map((k) => k.url).join(', ')}`);
  return s;
}

function expectStatuses(r: OriginReport, want: Record<string, SkillStatus>): void {
  const got: Record<string, SkillStatus> = {};
  for (const path of Object.keys(want)) got[path] = at(r, path).status;
  expect(got).toEqual(want);
}

const notFound =
  (path: string) =>
  (req: IncomingMessage, res: ServerResponse, url: URL): boolean => {
    if (url.pathname !== path) return false;
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('gone');
    return true;
  };

const file = (p: string): Uint8Array => new Uint8Array(readFileSync(p));

const ROOT_SKILLS = { '/skills/placeholder/SKILL.md': 'verified-signed', '/skills/api-client/SKILL.md': 'verified-signed' } as const;
const DOC_PATHS = ['validate_skill_line', 'search_knowledge', 'get_concept', 'list_concepts'].map((n) => `/skills/${n}/SKILL.md`);

/** Serves origin A once on `server` (same origin as later), so its key gets pinned. */
async function pinOriginA(h: Harness, server: TestServer): Promise<void> {
  const saved = { root: server.options.root, files: server.options.files, routes: server.options.routes };
  server.options.root = LTS;
  server.options.files = {};
  server.options.routes = [];
  const r = await h.probe(server.origin);
  expect(r.key.state).toBe('pinned-now');
  expect(r.key.pinned?.fingerprint).toBe(FP_1E1);
  Object.assign(server.options, saved);
}

describe('llms-txt-skills publishers', () => {
  it('origin A: both skills verified-signed, key 1e1Qc4… pinned silently, .pub equal to signing_key', async () => {
    const server = await serve({ root: LTS });
    const h = await harness();
    const r = count(await h.probe(server.origin));
    expectStatuses(r, ROOT_SKILLS);
    expect(r.key).toMatchObject({ state: 'pinned-now', conflicting: null, offered: { fingerprint: FP_1E1, source: 'index' } });
    expect(await h.store.getPin(server.origin)).toMatchObject({ fingerprint: FP_1E1 });
    expect(r.sources.find((s) => s.kind === 'signing-key')?.outcome).toBe('ok');
    for (const s of r.skills) expect(s.declared.map((d) => d.field).sort()).toEqual(['index-sha256', 'inline-sha256']);
    // The legacy alias stub is listed nowhere, so it is never discovered.
    expect(server.log.some((l) => l.path.includes('/.well-known/skills/'))).toBe(false);
  });

  it('origin B (docs, gen B): 4 skills verified-signed under RMM5…, executable-tool notes, memory line ignored', async () => {
    const server = await serve({ root: DOCS });
    const h = await harness();
    const r = count(await h.probe(server.origin));
    expect(r.skills).toHaveLength(4);
    for (const p of DOC_PATHS) {
      const s = at(r, p);
      expect(s.status).toBe('verified-signed');
      expect(s.advisory.map((f) => f.code)).toContain('executable-tool');
      expect(s.tool?.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(r.key.pinned?.fingerprint).toBe(FP_RMM5);
  });

  it('_variants/docs-genA as origin: 4 skills verified-signed under RMM5…', async () => {
    const server = await serve({ root: GEN_A });
    const h = await harness();
    const r = count(await h.probe(server.origin));
    for (const p of DOC_PATHS) expect(at(r, p).status).toBe('verified-signed');
    expect(r.key.pinned?.fingerprint).toBe(FP_RMM5);
  });

  it('gen A approved, then gen B served: 3 skills content-changed, validate_skill_line keeps its approval', async () => {
    const server = await serve({ root: GEN_A });
    const h = await harness();
    const first = await h.probe(server.origin);
    for (const s of first.skills) await approveSkill(h, first, s);
    const old = Object.fromEntries(first.skills.map((s) => [new URL(s.url as string).pathname, s.actual?.lf]));
    server.options.root = DOCS;
    h.clock.advance(25 * 3600_000);
    const r = count(await h.probe(server.origin));
    for (const n of ['search_knowledge', 'get_concept', 'list_concepts']) {
      const s = at(r, `/skills/${n}/SKILL.md`);
      expect(s.status).toBe('content-changed');
      expect(s.approval.state).toBe('suspended');
      expect(s.actual?.lf).not.toBe(old[`/skills/${n}/SKILL.md`]);
    }
    expect(at(r, '/skills/search_knowledge/SKILL.md').actual?.lf.slice(0, 4)).toBe('652e');
    expect(old['/skills/search_knowledge/SKILL.md']?.slice(0, 4)).toBe('a093');
    const kept = at(r, '/skills/validate_skill_line/SKILL.md');
    expect(kept.status).toBe('verified-signed');
    expect(kept.approval.state).toBe('approved');
    expect(kept.actual?.lf.slice(0, 4)).toBe('82c4');
    expect(r.key.state).toBe('match');
  });

  it('gen A index with gen B SKILL.md files: the 3 changed skills are digest-mismatch', async () => {
    const server = await serve({ root: GEN_A, mounts: { '/skills/': join(DOCS, 'skills') } });
    const h = await harness();
    const r = count(await h.probe(server.origin));
    expectStatuses(r, {
      '/skills/search_knowledge/SKILL.md': 'digest-mismatch',
      '/skills/get_concept/SKILL.md': 'digest-mismatch',
      '/skills/list_concepts/SKILL.md': 'digest-mismatch',
      '/skills/validate_skill_line/SKILL.md': 'verified-signed',
    });
  });

  it('overlay root-0735736-wrong-hash: api-client sources-disagree, placeholder verified-signed', async () => {
    const server = await serve({ root: LTS, files: { '/llms.txt': file(join(LTS, '_variants/root-0735736-wrong-hash/llms.txt')) } });
    const h = await harness();
    const r = count(await h.probe(server.origin));
    expectStatuses(r, { '/skills/api-client/SKILL.md': 'sources-disagree', '/skills/placeholder/SKILL.md': 'verified-signed' });
    const hexes = at(r, '/skills/api-client/SKILL.md').declared.map((d) => d.hex.slice(0, 4));
    expect(new Set(hexes)).toEqual(new Set(['f427', '2a24']));
  });

  const unsignedOverlay = (): ServerOptions => ({
    root: LTS,
    files: { '/.well-known/agent-skills/index.json': file(join(LTS, '_variants/root-ecda2f3-unsigned/.well-known/agent-skills/index.json')) },
    routes: [notFound('/.well-known/agent-skills/signing-key.pub')],
  });

  it('overlay root-ecda2f3-unsigned, fresh: both verified, nothing pinned', async () => {
    const server = await serve(unsignedOverlay());
    const h = await harness();
    const r = count(await h.probe(server.origin));
    expectStatuses(r, { '/skills/api-client/SKILL.md': 'verified', '/skills/placeholder/SKILL.md': 'verified' });
    expect(r.key.state).toBe('none');
    expect(await h.store.getPin(server.origin)).toBeNull();
  });

  it('overlay root-ecda2f3-unsigned, pinned: both key-changed (a pinned origin stopped signing)', async () => {
    const server = await serve(unsignedOverlay());
    const h = await harness();
    await pinOriginA(h, server);
    const r = count(await h.probe(server.origin, { force: true }));
    expectStatuses(r, { '/skills/api-client/SKILL.md': 'key-changed', '/skills/placeholder/SKILL.md': 'key-changed' });
    expect(r.key.state).toBe('stopped-signing');
    expect(r.key.pinned?.fingerprint).toBe(FP_1E1);
  });

  it('origin C + gen A: 3 mounted skills verified, site_facts unverified with warnings, 4 others fetch-failed', async () => {
    const server = await serve({ root: ORIGIN_C, mounts: { '/llms-txt-skills/': GEN_A } });
    const h = await harness();
    const r = count(await h.probe(server.origin));
    expectStatuses(r, {
      '/llms-txt-skills/skills/validate_skill_line/SKILL.md': 'verified',
      '/llms-txt-skills/skills/search_knowledge/SKILL.md': 'verified',
      '/llms-txt-skills/skills/list_concepts/SKILL.md': 'verified',
      '/skills/site_facts/SKILL.md': 'unverified',
      '/KDD/skills/search_knowledge/SKILL.md': 'fetch-failed',
      '/KDD/skills/list_concepts/SKILL.md': 'fetch-failed',
      '/llms-skills-registry/skills/search_knowledge/SKILL.md': 'fetch-failed',
      '/llms-skills-registry/skills/list_concepts/SKILL.md': 'fetch-failed',
    });
    const facts = at(r, '/skills/site_facts/SKILL.md');
    expect(facts.advisory.map((f) => f.code)).toContain('executable-tool');
    expect(facts.diagnostics.some((d) => d.code.includes('frontmatter'))).toBe(true);
    expect(r.key.state).toBe('none');
    expect(r.skills).toHaveLength(8);
  });

  it('origin C + gen B (live drift): search_knowledge and list_concepts digest-mismatch, validate_skill_line verified', async () => {
    const server = await serve({ root: ORIGIN_C, mounts: { '/llms-txt-skills/': DOCS } });
    const h = await harness();
    const r = count(await h.probe(server.origin));
    expectStatuses(r, {
      '/llms-txt-skills/skills/search_knowledge/SKILL.md': 'digest-mismatch',
      '/llms-txt-skills/skills/list_concepts/SKILL.md': 'digest-mismatch',
      '/llms-txt-skills/skills/validate_skill_line/SKILL.md': 'verified',
      '/KDD/skills/search_knowledge/SKILL.md': 'fetch-failed',
    });
  });

  it('origin C as https://mauricioperera.github.io with the reviewer registry: site_facts attested inside its window', async () => {
    const server = await serve({ root: ORIGIN_C, mounts: { '/llms-txt-skills/': GEN_A } });
    const reviewers = JSON.parse(readFileSync(join(LTS, '_external/mcpwasm/reviewers.from-wrangler-gateway.toml.json'), 'utf8')) as Record<string, unknown>;
    const registry = (reviewers['reviewers'] ?? reviewers) as Harness['settings']['reviewers'];
    const h = await harness(
      mappedFetch(server.origin, (u) => (u.host === 'mauricioperera.github.io' ? u.pathname : null)),
      { reviewers: registry },
    );
    h.clock.t = Date.UTC(2026, 9, 1);
    const r = count(await h.probe('https://mauricioperera.github.io'));
    expect(at(r, '/skills/site_facts/SKILL.md').attestation?.verdict).toBe('attested');
    expect(at(r, '/skills/site_facts/SKILL.md').status).toBe('unverified');
    expect(server.log.some((l) => l.path === '/.well-known/agent-skills/attestations.json')).toBe(true);
  });
});

describe('_synthetic cases, fresh and pinned', () => {
  const cases: Array<{ name: string; fresh: Record<string, SkillStatus>; pinned: Record<string, SkillStatus> }> = [
    {
      name: 'crlf-served',
      fresh: { '/skills/placeholder/SKILL.md': 'verified-signed', '/skills/api-client/SKILL.md': 'verified-signed' },
      pinned: { '/skills/placeholder/SKILL.md': 'verified-signed', '/skills/api-client/SKILL.md': 'verified-signed' },
    },
    {
      name: 'bom-prefixed',
      fresh: { '/skills/placeholder/SKILL.md': 'digest-mismatch', '/skills/api-client/SKILL.md': 'verified-signed' },
      pinned: { '/skills/placeholder/SKILL.md': 'digest-mismatch', '/skills/api-client/SKILL.md': 'verified-signed' },
    },
    {
      name: 'tampered-same-key',
      fresh: { '/skills/placeholder/SKILL.md': 'digest-mismatch', '/skills/api-client/SKILL.md': 'verified-signed' },
      pinned: { '/skills/placeholder/SKILL.md': 'digest-mismatch', '/skills/api-client/SKILL.md': 'verified-signed' },
    },
    {
      name: 'key-rotated-attacker',
      fresh: { '/skills/placeholder/SKILL.md': 'sources-disagree', '/skills/api-client/SKILL.md': 'verified-signed' },
      pinned: { '/skills/placeholder/SKILL.md': 'sources-disagree', '/skills/api-client/SKILL.md': 'key-changed' },
    },
  ];
  for (const c of cases) {
    it(`${c.name}, fresh`, async () => {
      const server = await serve({ root: join(LTS, '_synthetic', c.name) });
      const h = await harness();
      const r = count(await h.probe(server.origin));
      expectStatuses(r, c.fresh);
      const fp = c.name === 'key-rotated-attacker' ? FP_4NCA : FP_1E1;
      expect(r.key).toMatchObject({ state: 'pinned-now', pinned: { fingerprint: fp } });
      if (c.name === 'crlf-served') {
        const p = at(r, '/skills/placeholder/SKILL.md');
        expect(p.actual).toMatchObject({ matchedForm: 'lf-normalized', lf: expect.stringMatching(/^f427/), raw: expect.stringMatching(/^ed34/) });
        expect(p.signature.state).toBe('valid');
      }
      if (c.name === 'bom-prefixed') expect(at(r, '/skills/placeholder/SKILL.md').actual?.raw.slice(0, 4)).toBe('5ca8');
      if (c.name === 'tampered-same-key') expect(at(r, '/skills/placeholder/SKILL.md').actual?.raw.slice(0, 4)).toBe('99d6');
    });
    it(`${c.name}, pinned to 1e1Qc4…`, async () => {
      const server = await serve({ root: join(LTS, '_synthetic', c.name) });
      const h = await harness();
      await pinOriginA(h, server);
      const r = count(await h.probe(server.origin, { force: true }));
      expectStatuses(r, c.pinned);
      expect(r.key.pinned?.fingerprint).toBe(FP_1E1);
      if (c.name === 'key-rotated-attacker') {
        expect(r.key.state).toBe('changed');
        expect(r.key.offered?.fingerprint).toBe(FP_4NCA);
      } else {
        expect(r.key.state).toBe('match');
      }
    });
  }
});
