// All real sites of the corpus (real/sites), each served as an origin root. Sites whose
// indexes name their production host are probed as that origin through a fetch wrapper that
// maps the host (and `_external/<host>/` copies) onto the loopback server. The engine must
// finish every site, and the verdicts must follow MANIFEST.tsv (MATCH → verified, MISMATCH →
// digest-mismatch, missing file → fetch-failed, no digest → unverified) with the named
// exceptions of real-expectations.ts.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server';
import { SITES, localPathFor, mappedFetch, productionHost, realSites, siteOrigin, siteRows, type ManifestRow } from '../../support/corpus-sites';
import { harness } from '../../support/engine-harness';
import type { OriginReport, SkillReport, SkillStatus } from '../../../lib/types';
import { ALL_STATUSES, DOCUMENTS } from '../../../lib/types';
import { INVENTED_TYPE_SITES, NAMED, SITE_FACTS } from './real-expectations';

interface SiteRun {
  site: string;
  origin: string;
  report: OriginReport;
  log: TestServer['log'];
  ms: number;
}

const runs = new Map<string, SiteRun>();
const DISCOVERY_PATHS = new Set<string>(Object.values(DOCUMENTS).flatMap((d) => (d.path === null ? [] : [d.path])));
const PROBE_LIMIT_MS = 20_000;

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

async function runSite(site: string): Promise<SiteRun> {
  const server = await startServer({ root: join(SITES, site) });
  try {
    const prod = productionHost(site);
    const origin = siteOrigin(site, server.origin);
    const h = await harness(mappedFetch(server.origin, (u) => localPathFor(site, u, prod)));
    const start = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const report = await Promise.race([
      h.probe(origin),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${site}: probe did not finish in ${PROBE_LIMIT_MS} ms`)), PROBE_LIMIT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    h.store.close();
    return { site, origin, report, log: [...server.log], ms: Date.now() - start };
  } finally {
    await server.close();
  }
}

/** The local file (path inside the site folder) a skill URL is served from, or null. */
function servedFile(run: SiteRun, s: SkillReport): string | null {
  if (s.url === null) return null;
  const u = new URL(s.url);
  const prod = productionHost(run.site);
  const path = u.origin === run.origin && prod === null ? u.pathname : localPathFor(run.site, u, prod);
  if (path === null) return null;
  const rel = decodeURIComponent(path).replace(/^\//, '');
  return isFile(join(SITES, run.site, rel)) ? rel : null;
}

/** The digest verdict MANIFEST.tsv records for a file: MATCH, MISMATCH or null. */
function manifestVerdict(rows: ManifestRow[], rel: string): 'MATCH' | 'MISMATCH' | null {
  const row = rows.find((r) => r.rel === rel);
  if (!row) return null;
  if (/MISMATCH/.test(row.notes)) return 'MISMATCH';
  if (/MATCH/.test(row.notes)) return 'MATCH';
  return null;
}

/** The status the README's generic rules give a skill; null when the skill is refused (checked separately). */
function derivedStatus(run: SiteRun, s: SkillReport): SkillStatus | 'refused' {
  if (s.status === 'unsupported' || (s.status === 'invalid' && s.actual === null && s.size === null)) return 'refused';
  const rel = servedFile(run, s);
  if (rel === null) return 'fetch-failed';
  const verdict = manifestVerdict(siteRows(run.site), rel);
  if (s.declared.length === 0) return 'unverified';
  if (verdict === 'MISMATCH') return 'digest-mismatch';
  if (verdict === 'MATCH') return 'verified';
  return s.status; // a declared digest on a file MANIFEST does not rate: nothing to compare with
}

const summary = { sites: 0, skills: 0, byStatus: {} as Record<string, number>, slowestMs: 0 };

afterAll(() => {
  console.log(`conformance real/: ${summary.sites} sites, ${summary.skills} skills, slowest probe ${summary.slowestMs} ms; by status ${JSON.stringify(summary.byStatus)}`);
});

describe('real sites', () => {
  it('every site finishes with a done report, and every skill gets a known status', async () => {
    const sites = realSites();
    expect(sites.length).toBeGreaterThanOrEqual(111);
    for (const site of sites) {
      const run = await runSite(site);
      runs.set(site, run);
      expect(run.report.state, site).toBe('done');
      expect(run.report.origin).toBe(run.origin);
      summary.sites += 1;
      summary.slowestMs = Math.max(summary.slowestMs, run.ms);
      for (const s of run.report.skills) {
        expect(ALL_STATUSES, `${site} ${s.url}`).toContain(s.status);
        summary.skills += 1;
        summary.byStatus[s.status] = (summary.byStatus[s.status] ?? 0) + 1;
      }
    }
  }, 300_000);

  it('no real index is signed: nothing is pinned and nothing is verified-signed', () => {
    for (const run of runs.values()) {
      expect(run.report.key.state, run.site).toBe('none');
      for (const s of run.report.skills) expect(s.status).not.toBe('verified-signed');
    }
  });

  it('MATCH → verified, MISMATCH → digest-mismatch, missing file → fetch-failed, no digest → unverified', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const run of runs.values()) {
      for (const s of run.report.skills) {
        const want = derivedStatus(run, s);
        if (want === 'refused') continue;
        checked += 1;
        if (s.status !== want) wrong.push(`${run.site} ${s.url}: ${s.status} (${s.statusCode}), expected ${want}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(150);
  });

  it('a refused skill is unsupported or invalid, never fetched; MATCH files behind refusals belong to invented-type sites', () => {
    const problems: string[] = [];
    for (const run of runs.values()) {
      const requested = new Set(run.log.map((l) => l.path));
      for (const s of run.report.skills) {
        if (s.status !== 'unsupported' && !(s.status === 'invalid' && s.actual === null && s.size === null)) continue;
        if (s.fromStore || s.actual !== null) problems.push(`${run.site} ${s.url}: refused but has bytes`);
        if (s.url !== null) {
          const u = new URL(s.url);
          const local = u.origin === run.origin ? u.pathname : localPathFor(run.site, u, productionHost(run.site));
          // A refused entry may name a discovery document itself (typogrammar lists /llms.txt): those are probed anyway.
          if (local !== null && !DISCOVERY_PATHS.has(local) && requested.has(local)) problems.push(`${run.site} ${s.url}: refused but requested`);
        }
        const rel = servedFile(run, s);
        const verdict = rel !== null ? manifestVerdict(siteRows(run.site), rel) : null;
        if (s.status === 'unsupported' && verdict !== null && !(run.site in INVENTED_TYPE_SITES)) {
          problems.push(`${run.site} ${s.url}: unsupported over a ${verdict} file, not a README invented-type site`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('every README invented-type site reports its invented entries as unsupported', () => {
    for (const site of Object.keys(INVENTED_TYPE_SITES)) {
      const run = runs.get(site);
      expect(run, site).toBeDefined();
      const unsupported = run?.report.skills.filter((s) => s.status === 'unsupported') ?? [];
      expect(unsupported.length, site).toBeGreaterThan(0);
      for (const s of unsupported) expect(s.statusCode).toMatch(/type/);
    }
  });

  it('the named cases of the README and FORMATS.md §11 hold', () => {
    const problems: string[] = [];
    for (const e of NAMED) {
      const run = runs.get(e.site);
      if (!run) {
        problems.push(`${e.site}: not run`);
        continue;
      }
      if (e.path !== undefined) {
        const s = run.report.skills.find((k) => k.url !== null && new URL(k.url).pathname === e.path);
        if (!s) problems.push(`${e.site} ${e.path}: missing`);
        else if (s.status !== e.status) problems.push(`${e.site} ${e.path}: ${s.status}, expected ${e.status} (${e.why})`);
      } else {
        const hits = run.report.skills.filter((k) => k.statusCode.startsWith(e.codePrefix ?? ''));
        const ok = hits.filter((k) => k.status === e.status);
        if (ok.length !== e.count) problems.push(`${e.site}: ${ok.length} × ${e.status} (${e.codePrefix}), expected ${e.count} (${e.why})`);
      }
    }
    for (const f of SITE_FACTS) {
      const run = runs.get(f.site);
      if (!run) {
        problems.push(`${f.site}: not run`);
        continue;
      }
      if (f.skills !== undefined && run.report.skills.length !== f.skills) problems.push(`${f.site}: ${run.report.skills.length} skills, expected ${f.skills} (${f.why})`);
      if (f.llmsSkills !== undefined) {
        const n = run.report.skills.filter((s) => s.sources.includes('llms-txt')).length;
        if (n !== f.llmsSkills) problems.push(`${f.site}: ${n} llms.txt skills, expected ${f.llmsSkills} (${f.why})`);
      }
      for (const p of f.neverRequested ?? []) if (run.log.some((l) => l.path === p)) problems.push(`${f.site}: ${p} was requested (${f.why})`);
      if (f.diagnostic !== undefined && !run.report.diagnostics.some((d) => d.code === f.diagnostic)) problems.push(`${f.site}: no ${f.diagnostic} (${f.why})`);
    }
    expect(problems).toEqual([]);
  });

  it('the hull archive unpacks: 8 entries, a root SKILL.md of 8,228 bytes, digest eec9f10b…', () => {
    const run = runs.get('rindag-devs__hull__docs');
    const s = run?.report.skills.find((k) => k.type === 'archive');
    expect(s?.status).toBe('verified');
    expect(s?.archive?.format).toBe('tar.gz');
    expect(s?.archive?.entries).toHaveLength(8);
    expect(s?.archive?.sha256?.slice(0, 8)).toBe('eec9f10b');
    expect(s?.size).toBe(8228);
  });

  it('cross-host artifacts are allowed and marked', () => {
    const run = runs.get('Cold-IQ__coldiq-marketplace-skills');
    expect(run?.report.skills.length).toBe(18);
    for (const s of run?.report.skills ?? []) {
      expect(s.crossOrigin).toBe(true);
      expect(s.artifactHost).toBe('raw.githubusercontent.com');
      expect(s.diagnostics.some((d) => d.code === 'cross-origin-artifact')).toBe(true);
    }
  });
});
